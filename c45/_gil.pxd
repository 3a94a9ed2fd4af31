# When a compiled pass gives the GIL up. Beside a busy Python thread every
# release costs the caller a switch interval (5 ms by default: the busy thread
# takes the GIL, and the caller waits an interval to get it back), longer than
# a pass over a few hundred thousand values takes. A pass of fewer than this
# many values (or rows, or operations of that size) keeps the GIL; a longer one
# lets other threads run meanwhile, at the cost of one release.
cdef enum:
    NOGIL_WORK = 1 << 21
    # A sort costs some log2(n) passes: sorts of fewer values than this (tens of
    # thousands of rows a feature, a few ms) keep the GIL.
    NOGIL_SORT = 1 << 17
