"""Run fw_cases.py under MicroPython.

    micropython [-X heapsize=160k] tests/firmware_logic/run_mp.py


Prints one line per case and exits 1 if any failed (the same cases pytest runs under CPython).
"""

import gc
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE)
sys.path.insert(0, HERE + "/../..")

import fw_cases as cases  # noqa: E402

failed = 0
for name, fn in cases.CASES:
    try:
        fn()
        print("ok  ", name)
    except Exception as exc:
        failed += 1
        print("FAIL", name)
        sys.print_exception(exc)  # type: ignore[attr-defined]
    gc.collect()
free = gc.mem_free()  # type: ignore[attr-defined]
print(f"{len(cases.CASES)} cases, {failed} failed, {free} bytes free")
sys.exit(1 if failed else 0)
