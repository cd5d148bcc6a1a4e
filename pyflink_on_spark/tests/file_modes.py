"""What the tests of private files share: the usual umask while a test runs (what
os.makedirs / open() would give without the shim's care), and an entry's permission bits."""
import os
import stat

import pytest


@pytest.fixture(autouse=True)
def umask_022():
    """Import it into a test module to apply it to every test there (autouse)."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)
