"""Debian packages the plan picture tests need (Graphviz's dot, a headless chromium),
installed with apt-get when missing, so they run on a fresh CI machine too
(picture_tools.py; the installs start early, when collection ends)."""
import pytest

from pyflink_on_spark.cli.plan.tests.picture_tools import (NoApt, install_chromium,
                                                           install_graphviz)


@pytest.fixture(scope="session")
def graphviz_dot() -> str:
    try:
        return install_graphviz()
    except NoApt as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def chromium(graphviz_dot) -> str:
    try:
        return install_chromium()
    except NoApt as e:
        pytest.skip(str(e))
