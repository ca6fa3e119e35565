"""Where bots and the coach search: processes of their own, below the serving process's
priority.

The expert's search takes half a second of CPU a decision. In a thread of the process that
serves the tables it held the interpreter's lock against the event loop: beside one expert
table every other table's median move went from 10 to 40 ms (benchmarks/load.py --experts
1), and the coach reviewing the rounds of eight tables took it to 700 ms
(benchmarks/abuse.py). What goes in and out is plain data, so these processes import the
engine and the bots, never Django.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor


@functools.cache
def pool() -> ProcessPoolExecutor:
    """The processes (one a core), started on first use; after one of them dies (killed,
    out of memory) its caller clears this cache, and the next use starts new ones."""
    return ProcessPoolExecutor(
        mp_context=multiprocessing.get_context("spawn"),  # no fork of a process with threads
        initializer=getattr(os, "nice", None),  # POSIX; elsewhere the same priority
        initargs=(10,),
    )
