"""One codec for both sides, every firmware file compiles for MicroPython, and type-checks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import firmware.protocol
from host.link import codec, tools


def test_host_codec_is_the_firmware_file(repo: Path) -> None:
    assert Path(codec.SOURCE).samefile(repo / "firmware" / "protocol.py")
    assert codec.encode_frame is firmware.protocol.encode_frame
    assert codec.Decoder is firmware.protocol.Decoder
    assert "encode_state" in codec.__all__ and "SOURCE" in codec.__all__


def test_no_second_codec_in_the_host(repo: Path) -> None:
    hits = subprocess.run(
        ["grep", "-rlE", "def (cobs_encode|encode_frame|decode_frame)", "host", "firmware"],
        cwd=repo,
        capture_output=True,
        text=True,
    ).stdout.split()
    assert hits == ["firmware/protocol.py"]


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    result = tools.compile_all(tmp_path)
    assert result.compile_errors == {}
    names = sorted(f.name for f in tools.firmware_files())
    assert sorted(result.compiled) == names and "main.py" in names and "hw.py" in names
    assert all((tmp_path / (Path(n).stem + ".mpy")).stat().st_size > 0 for n in names)


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    return [*x, 1] if x else\n")
    result = tools.compile_all(tmp_path / "out", [bad])
    assert "bad.py" in result.compile_errors


def test_firmware_type_checks_against_pico_stubs() -> None:
    proc = tools.typecheck()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues found in 13 source files" in proc.stdout or "Success" in proc.stdout


def test_micropython_binary_comes_from_the_dev_extra() -> None:
    assert os.access(tools.tool("micropython"), os.X_OK)
    proc = tools.run_micropython(["-c", "import sys; print(sys.implementation.name)"])
    assert proc.stdout.strip() == "micropython"


def test_logic_modules_import_only_what_both_interpreters_have(repo: Path) -> None:
    import ast

    adapters = {"hw.py", "main.py", "unix_main.py", "ssd1306.py"}
    allowed = {"time", "struct", "binascii", "asyncio"}
    for path in sorted((repo / "firmware").glob("*.py")):
        if path.name in adapters:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = {node.module or ""}
            else:
                continue
            assert names <= allowed, f"{path.name} imports {names - allowed}"
    hw = (repo / "firmware" / "hw.py").read_text()
    assert "import machine" in hw
    others = [p.name for p in (repo / "firmware").glob("*.py") if "import machine" in p.read_text()]
    assert others == ["hw.py"], "only hw.py may touch machine"


def test_protocol_md_documents_every_message_event_and_nak_code(repo: Path) -> None:
    doc = (repo / "firmware" / "PROTOCOL.md").read_text(encoding="utf-8")
    for code, name in codec.TYPE_NAMES.items():
        assert f"| {code:#04x} | {name} |" in doc, name
    for kind, name in codec.EVENT_NAMES.items():
        assert f"| {kind} | {name} |" in doc, name
    naks = doc.split("### NAK codes", 1)[1].split("\n## ", 1)[0]
    for const in ("NAK_PAYLOAD", "NAK_TYPE", "NAK_UNSUPPORTED", "NAK_VERSION"):
        assert f"\n| {getattr(codec, const)} | " in naks, const
