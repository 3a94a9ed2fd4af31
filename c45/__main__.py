"""`python -m c45`: C4.5 on the bundled golf and weather data, printed as C4.5 prints it.

With arguments, `python -m c45 COMMAND ...` is the `c45` command (see `c45.cli`)."""
import sys

from c45 import C45Classifier, export_text
from c45._export import evaluation_table
from c45.datasets import load_golf, load_weather


def run(name, X, y, out):
    clf = C45Classifier().fit(X, y)
    out.write(f"=== {name}: {len(y)} cases, {X.shape[1]} attributes "
              f"(C4.5 Release 8 defaults: -m 2 -c 25)\n\n")
    out.write("Decision Tree:\n\n" + export_text(clf, tree="grown") + "\n")
    out.write("Simplified Decision Tree:\n\n" + export_text(clf) + "\n")
    out.write(evaluation_table(clf, X, y) + "\n")


def main(argv=None):
    out = sys.stdout
    try:
        run("golf", *load_golf(), out)
        run("weather (seed 000)", *load_weather(), out)
    except ImportError as exc:       # pandas is optional for the package itself
        sys.stderr.write(f"python -m c45 needs pandas for its bundled data: {exc}\n")
        return 2
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1:
        from c45.cli import main as cli_main
        sys.exit(cli_main(sys.argv[1:]))
    sys.exit(main())
