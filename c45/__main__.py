"""`python -m c45`: C4.5 on the bundled golf and weather data, printed as C4.5 prints it.

With arguments, `python -m c45 COMMAND ...` is the `c45` command (see `c45.cli`)."""
import sys


def run(name, X, y, out):
    from c45 import C45Classifier, export_text
    from c45._export import evaluation_table
    from c45.cli import _pruning_changed
    clf = C45Classifier().fit(X, y)
    out.write(f"=== {name}: {len(y)} cases, {X.shape[1]} attributes "
              f"(C4.5 Release 8 defaults: -m 2 -c 25)\n\n")
    out.write("Decision Tree:\n\n" + export_text(clf, tree="grown") + "\n")
    if _pruning_changed(clf):
        out.write("Simplified Decision Tree:\n\n" + export_text(clf) + "\n")
    else:
        out.write("(Pruning changed nothing: the tree above is the final tree.)\n\n")
    out.write(evaluation_table(clf, X, y) + "\n")


def main(argv=None):
    """The demo: C4.5 on the bundled golf and weather data."""
    from c45.datasets import load_golf, load_weather
    out = sys.stdout
    run("golf", *load_golf(), out)
    run("weather", *load_weather(), out)
    return 0


if __name__ == "__main__":
    from c45.cli import main as cli_main
    sys.exit(cli_main(sys.argv[1:] or ["demo"]))
