"""Debian packages the plan picture tests need (Graphviz's dot, a headless chromium),
installed with apt-get when missing, so they run on a fresh CI machine too."""
import os
import shutil
import subprocess

import pytest


def _apt_install(packages) -> None:
    if shutil.which("apt-get") is None:
        pytest.skip("needs %s and this machine has no apt-get to install them"
                    % ", ".join(packages))
    prefix = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if prefix and shutil.which("sudo") is None:
        pytest.skip("needs %s: install them (apt-get install %s) or run as root"
                    % (", ".join(packages), " ".join(packages)))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    apt = prefix + ["apt-get", "-o", "DPkg::Lock::Timeout=600"]
    install = apt + ["install", "-y", "--no-install-recommends"] + list(packages)
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(apt + ["update"], env=env, capture_output=True, check=True)
        subprocess.run(install, env=env, capture_output=True, check=True)


@pytest.fixture(scope="session")
def graphviz_dot() -> str:
    if shutil.which("dot") is None:
        _apt_install(["graphviz"])
    return shutil.which("dot")


@pytest.fixture(scope="session")
def chromium(graphviz_dot) -> str:
    if shutil.which("chromium") is None:
        _apt_install(["chromium", "fonts-dejavu-core"])
    return shutil.which("chromium")
