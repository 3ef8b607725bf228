"""The no-egress proof's set-up: it must run in a network namespace that has
only loopback (scripts/no-egress-tests.sh starts pytest under `unshare --net`),
and every `recorder` and `recorder-gateway` process runs under
`strace -f -e trace=connect`, through wrappers put in front of the binaries
before the gateway tests' harness reads RECORDER_BIN and GATEWAY_BIN."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRACES = Path(tempfile.mkdtemp(prefix="recorder-connect-traces-"))


def _wrap(env: str, default: str) -> None:
    real = Path(os.environ.get(env) or ROOT / default)
    real = real if real.is_absolute() else ROOT / real
    wrapper = TRACES / f"{real.name}-traced"
    # strace does not pass a SIGTERM on to the program it runs (it would live
    # on), so the wrapper does; fd 3 hands stdin (MCP over stdio) to the
    # background job, which sh would otherwise give /dev/null.
    wrapper.write_text(
        "#!/bin/sh\n"
        "exec 3<&0\n"
        f'strace -f -qq -e trace=connect -o "{TRACES}/{real.name}.$$.trace" "{real}" "$@" <&3 3<&- &\n'
        "tracer=$!\n"
        "exec 3<&-\n"
        "trap 'pkill -TERM -P \"$tracer\"' TERM INT\n"
        'while kill -0 "$tracer" 2>/dev/null; do wait "$tracer"; status=$?; done\n'
        'exit "${status:-0}"\n'
    )
    wrapper.chmod(0o755)
    os.environ[env] = str(wrapper)


assert shutil.which("strace"), "strace is missing (apt-get install strace)"
_wrap("RECORDER_BIN", "target/debug/recorder")
_wrap("GATEWAY_BIN", "target/debug/recorder-gateway")
sys.path.insert(0, str(ROOT / "tests/gateway"))
