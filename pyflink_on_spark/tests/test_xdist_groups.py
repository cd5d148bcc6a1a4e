"""The suite's xdist groups (conftest.py) take effect: a test that asks for a server runs in
the servers' group, whose tests one worker runs (it starts each server once). pytest 9.2
broke this silently with pytest-xdist 3.8 (pyproject.toml's pin says how)."""
import pytest


@pytest.mark.uses_servers("kafka_broker")   # (named only: the broker is not started)
def test_a_test_asking_for_a_server_is_scheduled_in_the_servers_group(request):
    marker = request.node.get_closest_marker("xdist_group")
    assert marker is not None and marker.args == ("servers",)
    if getattr(request.config.option, "loadgroup", False):   # an xdist worker, --dist loadgroup
        # the scheduler groups by this suffix of the id the worker reports
        assert request.node.nodeid.endswith("@servers"), request.node.nodeid
