# Plain C types shared by the Cython modules. This file cimports nothing else from
# c45, so every module can cimport it without cycles.
from libc.stdint cimport int8_t, int32_t, int64_t

# Node kinds (the §10 node types of C4.5 Release 8).
cdef enum:
    LEAF = 0
    DISCRETE = 1      # one branch per declared value 1..V
    CONTINUOUS = 2    # branch 1: value <= threshold, branch 2: value > threshold

cdef struct Node:
    int32_t kind          # LEAF, DISCRETE or CONTINUOUS
    int32_t feature       # tested feature, -1 for a leaf
    int32_t first_child   # children are nodes first_child .. first_child+n_children-1
    int32_t n_children    # number of branches B (0 for a leaf)
    int32_t node_class    # the node's class (majority, ties to the lowest index)
    double threshold      # continuous cut (an observed training value); NaN otherwise
    double weight         # C4.5's Items: total case weight that reached the node
    double errors         # C4.5's Errors: training errors (grown) or estimate (pruned)

# The encoded training data, read by the splitter and the pruner. Arrays are
# feature-major: feature f's values are cont[col[f]*n_cases : (col[f]+1)*n_cases].
cdef struct Dataset:
    Py_ssize_t n_cases
    Py_ssize_t n_features
    Py_ssize_t n_classes
    const double* cont          # continuous values, NaN = unknown
    const int32_t* codes        # discrete codes 1..V, 0 = unknown
    const int32_t* col          # feature -> column in cont or codes
    const int32_t* n_values     # feature -> V for discrete, 0 for continuous
    const int32_t* y            # class code of each case
    const double* init_weight   # weight of each case at the start of growing/pruning
    const double* distinct      # per continuous feature: its distinct known values, sorted
    const int64_t* distinct_start  # feature -> offset in distinct (n_features + 1 entries)
    bint f32                    # round every arithmetic result to binary32 (R8 exact)
    bint count_mode_init        # all initial weights are 1: totals are case counts (§1.4)
    bint multival               # every feature is discrete with V >= 0.3 N (§6)
    double total_weight         # N of the many-valued test
    double min_objs             # MINOBJS (-m)

# A growable array of nodes with their class distributions (count x n_classes).
cdef struct NodeBuffer:
    Node* nodes
    double* value
    Py_ssize_t count
    Py_ssize_t capacity
    Py_ssize_t n_classes
