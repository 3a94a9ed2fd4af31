# Plain C types shared by the Cython modules. This file cimports nothing else from
# c45, so every module can cimport it without cycles.
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

# Node kinds (the §10 node types of C4.5 Release 8).
cdef enum:
    LEAF = 0
    DISCRETE = 1      # one branch per declared value 1..V
    CONTINUOUS = 2    # branch 1: value <= threshold, branch 2: value > threshold
    SUBSET = 3        # branch b: the values v with value_map[map_offset + v] == b (-s)

# Node.cut_rank not known (pruning searches the sorted values for it); above
# every rank (at most 2**31 - 2 cases).
cdef enum:
    NO_CUT_RANK = 0x7FFFFFFF

cdef struct Node:
    int32_t kind          # LEAF, DISCRETE, CONTINUOUS or SUBSET
    int32_t feature       # tested feature, -1 for a leaf
    int32_t first_child   # children are nodes first_child .. first_child+n_children-1
    int32_t n_children    # number of branches B (0 for a leaf)
    int32_t node_class    # the node's class (majority, ties to the lowest index)
    uint32_t cut_rank     # float64 continuous test: how many known training values are
                          # <= threshold, found when growing on the lists (pruning
                          # sends a case left by rank below it); NO_CUT_RANK otherwise
    double threshold      # continuous cut (an observed training value); NaN otherwise
    double weight         # C4.5's Items: total case weight that reached the node
    double errors         # C4.5's Errors: training errors (grown) or estimate (pruned)
    int64_t map_offset    # SUBSET: value v goes to branch maps[map_offset + v]; else -1

# Signals in the compiled core (c45/_interrupt.pyx): a call made on Python's main
# thread runs the Python handlers when a signal has come (a C flag, no GIL) and
# sets stop if one raised; every loop, on any thread, stops when stop is set.
cdef struct Interrupt:
    unsigned long owner         # thread ident of the thread that runs handlers; 0: none
    int stop                    # a signal handler raised: unwind
    int timed                   # no C flag for every signal: poll on a timer too
    int wrapping                # this call holds a reference on the wrapped handlers
    double last                 # monotonic time of the last timed poll

# The encoded training data, read by the splitter and the pruner. Arrays are
# feature-major: feature f's values are cont[col[f]*n_cases : (col[f]+1)*n_cases].
cdef struct Dataset:
    Py_ssize_t n_cases
    Py_ssize_t n_features
    Py_ssize_t n_classes
    const float* cont           # float32 mode: continuous values, NaN = unknown, held as
                                # the float32 numbers they are (4 bytes a value; read
                                # widened, the same doubles); float32 on the lists
                                # by_source, and float64: NULL (X's own read instead)
    # float64 mode: each case's rank in each continuous feature's order by (value,
    # row), unknown values last; the values in that order; the known counts
    const uint32_t* rank
    const double* sorted_value
    const int64_t* n_known      # per feature
    # each continuous feature's cases in the order by (value, row), unknown values
    # last: float32 on the lists (listed), whose values are cont's; float64 while
    # growing on the lists, where it is the ranks' table inverted in place (rank
    # is then NULL; c45/_presorted.pyx: rank_order)
    const uint32_t* order
    # float64 growing: per continuous feature and rank r of a known value, how many
    # ranks past r + 1 the first value more than 1e-5 above r's lies (255: 255 or
    # more), so that a scan tells a cut between two ranks from the ranks alone
    # (c45/_splitter.pxd: ranks_apart)
    const uint8_t* far
    # float64 growing on the lists: every RANK_SAMPLE-th sorted value of each
    # continuous feature (its rank r * RANK_SAMPLE at [col * sample_stride + r]),
    # so that the stored cut's search reads a few values far apart, not a dozen
    # (c45/_splitter.pyx: rank_above); NULL where there is none
    const double* rank_sample
    Py_ssize_t sample_stride
    # float64 grown without sorted_value, or float32 on the lists without cont
    # (by_source): each feature's values read from the caller's X as the encoding
    # read them, column f at src_addr[f] (an address) with src_stride[f] bytes
    # between rows, float32 where src_single[f] (float64 only: float32 on the
    # lists rounds each value it reads, c45/_splitter.pxd's listed_value)
    bint by_source
    const Py_ssize_t* src_addr
    const Py_ssize_t* src_stride
    const uint8_t* src_single
    const int32_t* codes        # discrete codes 1..V, 0 = unknown
    const int32_t* col          # feature -> column in cont or codes
    const int32_t* n_values     # feature -> V for discrete, 0 for continuous
    const int32_t* y            # class code of each case
    const double* init_weight   # weight of each case at the start of growing/pruning:
    Py_ssize_t init_weight_step # case i's at [i * step]; step 0 where one number stands
                                # for all (an unweighted fit holds no array of ones)
    const double* distinct      # float32 mode (and windows), per continuous feature:
    const int64_t* distinct_start  # its distinct known values sorted; offsets (n_features + 1)
    const float* distinct32     # float32 mode: distinct held as float32 numbers
                                # (distinct NULL then)
    bint cut_from_distinct      # the stored cut is read from distinct (float32, or a
                                # window's tree in float64: all cases' values, §5.4)
    bint f32                    # round every arithmetic result to binary32 (R8 exact)
    bint listed                 # float32 grown on the presorted lists (c45/_presorted):
                                # every sum is exact whatever its order (whole weights,
                                # no unknown value, a total of at most 2**24)
    bint count_mode_init        # all initial weights are 1: totals are case counts (§1.4)
    bint whole_counts           # a fit's node buffers hold binary32 counts (c45/_nodes.pyx:
                                # exact_counts; set by build_tree alone)
    bint multival               # every feature is discrete with V >= 0.3 N (§6)
    double total_weight         # N of the many-valued test
    double min_objs             # MINOBJS (-m)
    # Growing options (C4.5's switches and the seeds' variants)
    bint gain_ratio             # False: plain information gain (-g)
    bint subsets                # group discrete values into subsets (-s)
    bint leak_min_objs          # reproduce R8's MINOBJS leak in subset evaluation (§13 Q2)
    bint midpoint               # store the cut midpoint instead of a training value
    bint mdl                    # Release 8's log2(cuts)/N penalty on continuous gains
    int max_depth               # -1: unlimited
    double min_split            # a node lighter than this is a leaf
    double max_purity           # a node whose majority share reaches this is a leaf
    double min_gain             # a test must gain at least this (else a leaf); -inf: off
    int max_features            # features drawn at random per node; 0: all
    uint64_t seed               # random state for max_features
    Interrupt* intr             # Ctrl-C polling of the call (NULL: none)

# A growable array of nodes with their class distributions (count x n_classes),
# and the value-to-branch maps of subset tests. The class weights are read and
# written through _nodes.pxd's class_weight rules alone: float64, or binary32
# where every one is a whole number of at most 2**24 (counted: exact_counts), 4
# bytes a class instead of 8 (at 10 classes 80 of a node's 136 bytes).
cdef struct NodeBuffer:
    Node* nodes
    char* cells           # count x n_classes class weights: double, or float (counted)
    bint counted
    Py_ssize_t count
    Py_ssize_t capacity
    Py_ssize_t n_classes
    int32_t* maps
    Py_ssize_t maps_count
    Py_ssize_t maps_capacity
    Interrupt* intr       # the call's, for passes over every node's class weights
                          # (growth, grafts, compaction); NULL: they never look

# One case in a node's row list (float64 growing, c45/_presorted.pyx): the node's
# cases in row order, each with its weight at the node (its class is Dataset.y's,
# read in row order): 16 bytes.
cdef struct Entry:
    double weight         # the case's weight at this node (unknowns scaled, §2 step 9)
    int32_t case
    int32_t outcome       # its branch of the node's test (0: unknown)

# One case in a node's list of a continuous feature: the unknown values first (row
# order) then the known ones by (value, row). The entry is a key that says where
# the case's value is, not the value: it indexes the feature's column of values in
# the list's order (Dataset.sorted_value, float64: the case's rank) or by row
# (float32 on the lists: the row, of Dataset.cont or X), so a float64 scan reads the values
# in sequence. The case is the feature's order at the rank (Dataset.order, float64:
# read in sequence too) or the key itself (float32: the row); its class (Dataset.y)
# and weight at the node (the row list's) are read by case id: 4 bytes a case a
# feature (c45/_splitter.pxd: list_values, list_cases, case_of).
ctypedef uint32_t Valued

# The same entry in a set-aside subtree's list (c45/_presorted.pyx: tasks): its rank
# and its case, 8 bytes, so that growing there, where a node's ranks are spread
# thin over the feature's order, reads no order table (a cache miss an entry).
cdef struct Pair:
    uint32_t key
    int32_t case

# A test as the reordering primitives see it.
cdef struct Test:
    int32_t kind
    int32_t feature
    double threshold
    const int32_t* value_map     # SUBSET only: value -> branch


cdef inline double initial_weight(const Dataset* d, Py_ssize_t case) noexcept nogil:
    """The case's weight at the start of growing and pruning."""
    return d.init_weight[case * d.init_weight_step]
