"""The driver channel without Spark: stream order, retried attempts, spilling, and the stop
verdict after a user error (spark/driver_channel.py, spark/task_channel.py)."""
import os
import threading

import pytest

from pyflink_on_spark.spark.driver_channel import END, OUT, ROW, DriverChannel, StreamOrder
from pyflink_on_spark.spark.task_channel import JobAlreadyFailed, TaskChannel

A0, A1, B0 = (0, 0), (0, 1), (1, 0)


def _texts(messages):
    return [m[2] for m in messages]


def test_the_front_stream_is_handed_on_at_once_the_others_in_order_after_it(tmp_path):
    order = StreamOrder([A0, A1, B0], str(tmp_path))
    assert _texts(order.deliver(A1, 0, (OUT, 0, "a1-first"))) == []
    assert _texts(order.deliver(B0, 0, (OUT, 0, "b0-first"))) == []
    assert len(os.listdir(tmp_path)) == 2          # waiting streams are on disk
    assert _texts(order.deliver(A0, 0, (OUT, 0, "a0-first"))) == ["a0-first"]
    assert _texts(order.deliver(A1, 1, (OUT, 1, "a1-second"))) == []
    # A0 ends: A1's spilled messages follow; B0 waits for A1's end
    assert _texts(order.deliver(A0, 1, (END, 1))) == ["a1-first", "a1-second"]
    assert _texts(order.deliver(A1, 2, (OUT, 2, "a1-live"))) == ["a1-live"]
    assert _texts(order.deliver(A1, 3, (END, 3))) == ["b0-first"]
    assert os.listdir(tmp_path) == []


def test_a_retried_attempt_resends_from_the_start_and_only_new_messages_count(tmp_path):
    order = StreamOrder([A0], str(tmp_path))
    first_attempt = [(OUT, 0, "x"), (OUT, 1, "y")]          # then the worker was killed
    second_attempt = [(OUT, 0, "x"), (OUT, 1, "y"), (OUT, 2, "z"), (END, 3)]
    got = []
    for message in first_attempt + second_attempt:
        got += _texts(order.deliver(A0, message[1], message))
    assert got == ["x", "y", "z"]


def test_flush_hands_on_streams_that_never_ended_in_order(tmp_path):
    order = StreamOrder([A0, A1, B0], str(tmp_path))
    list(order.deliver(B0, 0, (OUT, 0, "b")))
    list(order.deliver(A1, 0, (OUT, 0, "a1")))
    assert _texts(order.flush()) == ["a1", "b"]


def test_the_order_gives_way_when_a_stream_waited_too_long(tmp_path):
    # an endless front stream (a source that never ends) must not hold the others forever
    now = [0.0]
    order = StreamOrder([A0, A1], str(tmp_path), hold_seconds=30, clock=lambda: now[0])
    assert _texts(order.deliver(A1, 0, (OUT, 0, "a1-first"))) == []
    assert _texts(order.deliver(A0, 0, (OUT, 0, "a0-first"))) == ["a0-first"]
    now[0] = 29.0
    assert _texts(order.release_if_held_too_long()) == []
    now[0] = 30.0
    assert _texts(order.release_if_held_too_long()) == ["a1-first"]
    assert order.live and os.listdir(tmp_path) == []
    # from now on each message goes on as it arrives, each stream in its own order
    assert _texts(order.deliver(A1, 1, (OUT, 1, "a1-live"))) == ["a1-live"]
    assert _texts(order.deliver(A1, 1, (OUT, 1, "a1-live"))) == []    # a retry's resend
    assert _texts(order.deliver(A0, 1, (OUT, 1, "a0-live"))) == ["a0-live"]
    assert _texts(order.flush()) == []


def test_the_order_gives_way_when_the_spill_grows_too_big(tmp_path):
    order = StreamOrder([A0, A1, B0], str(tmp_path), hold_bytes=1000, clock=lambda: 0.0)
    assert _texts(order.deliver(B0, 0, (OUT, 0, "b0"))) == []
    assert _texts(order.deliver(A1, 0, (OUT, 0, "x" * 500))) == []
    # the spill passes 1000 bytes: what waited goes on in stream order (A1 before B0)
    assert _texts(order.deliver(A1, 1, (OUT, 1, "y" * 500))) == ["x" * 500, "y" * 500, "b0"]


def test_a_short_job_keeps_the_deterministic_order(tmp_path):
    order = StreamOrder([A0, A1], str(tmp_path), hold_seconds=30, clock=lambda: 5.0)
    assert _texts(order.deliver(A1, 0, (OUT, 0, "a1"))) == []
    assert _texts(order.deliver(A0, 0, (OUT, 0, "a0"))) == ["a0"]
    assert _texts(order.deliver(A0, 1, (END, 1))) == ["a1"]
    assert not order.live


def _task(channel, stream, messages):
    task = TaskChannel(channel.address + (channel.token,), stream[0], stream[1], 0)
    for kind, text in messages:
        if kind == OUT:
            task.send_output(text)
        else:
            task.send_row(7, text.encode())
    task.end()
    task.close()


def test_tasks_over_sockets_arrive_in_stream_order(tmp_path):
    channel = DriverChannel([A0, A1])
    try:
        later = threading.Thread(target=_task, args=(channel, A1, [(OUT, "1 printed"),
                                                                   (ROW, "1 row")]))
        later.start()
        later.join()
        _task(channel, A0, [(OUT, "0 printed")])
        channel.job_finished()
        got = [(m[0], m[2]) for m in channel.messages()]
    finally:
        channel.close()
    assert got == [(OUT, "0 printed"), (OUT, "1 printed"), (ROW, 7)]


def test_after_a_user_error_the_job_is_cancelled_and_new_attempts_do_not_run():
    cancelled = []
    channel = DriverChannel([A0], on_error=cancelled.append)
    try:
        task = TaskChannel(channel.address + (channel.token,), 0, 0, 0)
        task.report_error(ValueError("boom"))      # returns once the driver has cancelled
        assert cancelled and "ValueError: boom" in cancelled[0]
        assert "ValueError: boom" in channel.user_error
        task.close()
        with pytest.raises(JobAlreadyFailed):
            TaskChannel(channel.address + (channel.token,), 0, 0, 1)
    finally:
        channel.close()
