"""svg and png through Graphviz's `dot` program, when it is installed."""
from __future__ import annotations

import shutil
import subprocess

INSTALL_HINT = ("--format svg and png need Graphviz's 'dot' program, which is not on PATH. "
                "Install it (Debian/Ubuntu: apt-get install graphviz; macOS: brew install "
                "graphviz), or use --format mermaid, dot or text, which need nothing.")


class GraphvizMissing(RuntimeError):
    pass


def graphviz_available() -> bool:
    return shutil.which("dot") is not None


def render_with_graphviz(dot_source: str, output_format: str) -> bytes:
    """`dot_source` drawn as `output_format` (svg, png) by Graphviz."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizMissing(INSTALL_HINT)
    done = subprocess.run([program, "-T" + output_format], input=dot_source.encode(),
                          capture_output=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError("Graphviz's dot failed: %s" % done.stderr.decode(errors="replace"))
    return done.stdout
