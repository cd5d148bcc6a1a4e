"""Debian packages the plan picture tests need (Graphviz's dot, a headless chromium),
installed with apt-get when missing, so they run on a fresh CI machine too. Installed once
per test process (server_installs.installed_once): the plan picture tests run first in a
full run, so these installs head the early apt queue (server_installs.EARLY) instead of
waiting for the dpkg lock behind the database servers' installs."""
from __future__ import annotations

import os
import shutil
from typing import Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import apt_install


class NoApt(Exception):
    """This machine cannot install the packages: the fixtures skip saying why."""


def _apt_install(packages) -> None:
    if shutil.which("apt-get") is None:
        raise NoApt("needs %s and this machine has no apt-get to install them"
                    % ", ".join(packages))
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if prefix and shutil.which("sudo") is None:
        raise NoApt("needs %s: install them (apt-get install %s) or run as root"
                    % (", ".join(packages), " ".join(packages)))
    apt_install(packages)


@installed_once("graphviz")
def install_graphviz() -> Optional[str]:
    """The path of Graphviz's dot, installed first when missing."""
    if shutil.which("dot") is None:
        _apt_install(["graphviz"])
    return shutil.which("dot")


@installed_once("chromium")
def install_chromium() -> Optional[str]:
    """The path of chromium (with Graphviz, which its test needs too), installed first when
    missing."""
    install_graphviz()
    if shutil.which("chromium") is None:
        _apt_install(["chromium", "fonts-dejavu-core"])
    return shutil.which("chromium")
