/* Fetching a cache line before a loop reads it (the growers' and the pruner's
   reads by case id, which go to rows spread over whole columns). GCC 12 at -O1
   and above emits no instruction for __builtin_prefetch in those loops (seen in
   the object code), so on x86 the instruction itself. */
#ifndef C45_PREFETCH_H
#define C45_PREFETCH_H
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define C45_PREFETCH(addr) __asm__ volatile("prefetcht0 %0" : : "m"(*(const char*)(addr)))
#elif defined(__GNUC__) || defined(__clang__)
#define C45_PREFETCH(addr) __builtin_prefetch((const void*)(addr), 0, 3)
#else
#define C45_PREFETCH(addr) ((void)(addr))
#endif
#endif
