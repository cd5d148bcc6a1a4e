"""When collection ends, the installs of the servers the collected tests will ask for start
in the background (pyflink_on_spark/tests/server_installs.py)."""
from pyflink_on_spark.tests.server_installs import install_early


def pytest_collection_finish(session) -> None:
    if session.config.option.collectonly:
        return
    used = set()
    for item in session.items:
        used.update(getattr(item, "fixturenames", ()))
    install_early(used)
