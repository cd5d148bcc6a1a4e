"""An RMQSource as an unbounded source of the streaming executor (sources.py).

Flink's RMQSource acknowledges a message only when the checkpoint after it completed, and,
with `use_correlation_id`, drops a message whose correlation id it already processed and has
not acknowledged yet (MultipleIdsMessageAcknowledgingSourceBase): RabbitMQ redelivers what was
not acknowledged when the consumer died, and those redeliveries are the duplicates.

Here, per micro-batch N:

1. plan(N): the driver's consumer (a pika connection owned by a thread of its own, which
   keeps heartbeats and deliveries flowing while batches run) hands over the messages it
   received. With correlation ids, a message whose id a batch not yet acknowledged holds
   (or an earlier message of this batch) is rejected (basic.reject, not requeued: Flink's
   basicReject) and dropped; a message without a correlation id fails the job (Flink's
   NullPointerException text). The kept messages (bytes, correlation id) are written to
   ``<checkpoint>/state/sources/<source>/<N>`` *before* the batch runs; a re-run of batch N
   (after a crash) reads them back instead: same batch id, same input.
2. frame(): the recorded bytes go to the source's subtask (parallelism 1, as Flink's
   RMQSource) as split rows; a Spark task decodes them with the DeserializationSchema, and
   the job's operators process them in their tasks, as for any source.
3. compact(), called once batch N's checkpoint completed (state version, sink commits):
   one basic.ack (multiple) up to the batch's last delivery tag, then a synchronous round
   trip on the same channel (AMQP handles a channel's methods in order: its answer means the
   ack was processed), then "acknowledged up to N" is recorded.

Guarantees across a crash of the driver (kill -9 at any point) and a restart from the same
checkpoint directory: no message is lost (it is acknowledged only after the batch that
recorded it completed; what the broker held unacknowledged is delivered again), and a
re-run batch reads exactly its recorded messages. Redeliveries of messages already recorded
come back with the broker's `redelivered` flag: with correlation ids they are rejected
because the restarted source rebuilds the ids of every batch whose acknowledgement was not
confirmed from those records (exactly once); without, they are processed again (at least
once), as in Flink. The restarted source keeps those ids until it has consumed as many
messages as the queue held ready when it connected (requeued messages keep their place at
the head of the queue, so all redeliveries are among them); Flink forgets them at the first
checkpoint after the restore.

Memory: a batch takes at most MAX_BATCH_MESSAGES messages (the rest wait for the next
batch); RMQConnectionConfig.set_prefetch_count bounds what the broker sends ahead, as in
Flink (without it the broker sends everything ready, which then waits in the consumer).
"""
from __future__ import annotations

import json
import pickle
import queue as queues
import threading
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.specs.sources import RabbitMQSourceSpec

Message = Tuple[bytes, Optional[str]]    # body, correlation id
MAX_BATCH_MESSAGES = 100_000
CHUNK_MESSAGES = 4096
CALL_TIMEOUT_S = 120.0
WHO = "RMQSource"
_NO_CORRELATION_ID = ("RabbitMQ source was instantiated with usesCorrelationId set to true yet "
                      "we couldn't extract the correlation id from it!")


class _Consumer(threading.Thread):
    """Owns the pika connection (pika's BlockingConnection is not thread-safe): consumes the
    queue into `received`, and runs the driver's calls (take, reject, ack) between reads."""

    def __init__(self, settings: Dict[str, Any], queue_name: str) -> None:
        super().__init__(name="rmq-source-consumer", daemon=True)
        self.settings = settings
        self.queue_name = queue_name
        self.calls: "queues.Queue" = queues.Queue()
        self.received: List[Tuple[int, bytes, Optional[str], bool]] = []
        self.ready_at_start = 0          # ready messages when the consumer connected
        self.started = threading.Event()
        self.error: Optional[BaseException] = None
        self.stopping = threading.Event()

    def run(self) -> None:
        from pyflink_on_spark.codecs.rabbitmq.connection import connect, declare_queue
        connection = None
        try:
            connection = connect(self.settings, WHO)
            channel = connection.channel()
            declare_queue(channel, self.queue_name, self.settings, WHO)
            prefetch = self.settings.get("prefetch_count")
            if prefetch is not None:
                channel.basic_qos(prefetch_count=int(prefetch), global_qos=True)
            self.ready_at_start = channel.queue_declare(
                self.queue_name, durable=True, passive=True).method.message_count
            channel.basic_consume(self.queue_name, self._on_message, auto_ack=False)
            self.channel = channel
        except BaseException as e:
            self.error = e
            self.started.set()
            if connection is not None and connection.is_open:
                connection.close()
            return
        self.started.set()
        try:
            while not self.stopping.is_set():
                connection.process_data_events(0.05)
                self._run_calls()
        except BaseException as e:
            self.error = e
            self._run_calls()       # they fail now, with the error
        finally:
            try:
                if connection.is_open:
                    connection.close()   # unacknowledged deliveries go back to the queue
            except Exception:
                pass

    def _on_message(self, channel, method, properties, body) -> None:
        self.received.append((method.delivery_tag, body, properties.correlation_id,
                              method.redelivered))

    def _run_calls(self) -> None:
        while True:
            try:
                call, box = self.calls.get_nowait()
            except queues.Empty:
                return
            if self.error is not None:
                box["error"] = self.error
            else:
                try:
                    box["result"] = call(self.channel)
                except BaseException as e:
                    box["error"] = e
            box["done"].set()

    def call(self, function: Callable, doing: str):
        """function(channel), run by the consumer's thread; its result or a clear error."""
        if self.error is not None or not self.is_alive():
            raise _failed(self.settings, self.error or RuntimeError("closed"), doing)
        box: Dict[str, Any] = {"done": threading.Event()}
        self.calls.put((function, box))
        if not box["done"].wait(CALL_TIMEOUT_S):
            raise _failed(self.settings, TimeoutError("no answer in %.0f s" % CALL_TIMEOUT_S),
                          doing)
        if "error" in box:
            raise _failed(self.settings, box["error"], doing) from None
        return box["result"]

    def take(self, limit: int):
        """The deliveries received so far (at most `limit`), in delivery order."""
        def taking(channel):
            taken = self.received[:limit]
            del self.received[:limit]
            return taken
        return self.call(taking, "taking the received messages")

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)


def _failed(settings: Dict[str, Any], error: BaseException, doing: str) -> JobExecutionError:
    """The job's error for a failure of the consumer's connection: its one clear message
    (a JobExecutionError: the program sees the message, not the driver code's stack)."""
    from pyflink_on_spark.codecs.rabbitmq.connection import (RabbitMQConnectionError,
                                                             connection_lost)
    if not isinstance(error, RabbitMQConnectionError):
        error = connection_lost(settings, WHO, error, doing)
    return JobExecutionError(str(error))


class RabbitMQQueue:
    """The UnboundedSource (sources.py) of an RMQSource: a batch's input is its recorded
    messages [(body, correlation id)]."""

    def __init__(self, spec: RabbitMQSourceSpec, store: SnapshotStore, source_id: str,
                 parallelism: int) -> None:
        self.spec = spec
        self.store = store
        self.settings = dict(spec.connection)
        self.dir = store.path("sources", source_id)
        self._consumer: Optional[_Consumer] = None
        self._session = 0
        self._state: Dict[str, Any] = {}
        self._pending: Dict[int, int] = {}        # batch id -> its last delivery tag
        # batch id -> the correlation ids it recorded, for batches whose messages may be
        # delivered again (not acknowledged in this session, or recorded by an earlier one)
        self._ids: Dict[int, Set[str]] = {}
        self._earlier: Set[int] = set()           # the batches of _ids an earlier run recorded
        self._left_to_drain = 0

    # -- the checkpoint's records ------------------------------------------------------------
    def _log_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _logs(self) -> List[int]:
        return sorted(int(n) for n in self.store.list_names(self.dir) if n.isdigit())

    def _read_log(self, batch_id: int) -> Dict[str, Any]:
        return pickle.loads(self.store.read_bytes(self._log_path(batch_id)))

    def _save_state(self) -> None:
        self.store.write_bytes("%s/state" % self.dir, json.dumps(self._state).encode())

    def _start(self) -> None:
        """Connects, and rebuilds what earlier runs of the job left unacknowledged."""
        path = "%s/state" % self.dir
        state = json.loads(self.store.read_bytes(path)) if self.store.exists(path) else {}
        session = state.get("session", -1) + 1
        acked = {int(s): n for s, n in state.get("acked", {}).items()}
        drained_below = state.get("drained_below", 0)
        if self.spec.use_correlation_id:
            for batch_id in self._logs():
                log = self._read_log(batch_id)
                if log["session"] >= drained_below and batch_id > acked.get(log["session"], -1):
                    self._ids[batch_id] = {cid for _, cid in log["messages"]}
                    self._earlier.add(batch_id)
        consumer = _Consumer(self.settings, self.spec.queue_name)
        consumer.start()
        consumer.started.wait()
        if consumer.error is not None:
            raise _failed(self.settings, consumer.error, "connecting") from None
        self._consumer = consumer
        self._session = session
        if self._earlier:
            self._left_to_drain = consumer.ready_at_start
        else:
            drained_below = session
        self._state = {"session": session, "drained_below": drained_below,
                       "acked": {str(s): n for s, n in acked.items() if s >= drained_below}}
        self._save_state()

    # -- UnboundedSource -----------------------------------------------------------------------
    def plan(self, batch_id: int) -> List[Message]:
        """The messages batch ``batch_id`` reads: recorded, or taken from the queue now."""
        if self.store.exists(self._log_path(batch_id)):
            return [tuple(m) for m in self._read_log(batch_id)["messages"]]
        if self._consumer is None:
            self._start()
        deliveries = self._consumer.take(MAX_BATCH_MESSAGES)
        if not deliveries:
            return []
        kept: List[Message] = []
        rejected: List[int] = []
        last_kept = deliveries[-1][0]
        if self.spec.use_correlation_id:
            batch_ids: Set[str] = set()
            for tag, body, cid, _ in deliveries:
                if cid is None:
                    raise JobExecutionError("%s (queue %r): %s" % (
                        WHO, self.spec.queue_name, _NO_CORRELATION_ID))
                if cid in batch_ids or any(cid in ids for ids in self._ids.values()):
                    rejected.append(tag)        # processed already: Flink's basicReject
                else:
                    batch_ids.add(cid)
                    kept.append((body, cid))
                    last_kept = tag
        else:
            kept = [(body, cid) for _, body, cid, _ in deliveries]
        if kept:
            # recorded before anything is acknowledged or rejected
            self.store.write_bytes(self._log_path(batch_id), pickle.dumps(
                {"session": self._session, "messages": kept}, protocol=5))
            self._pending[batch_id] = last_kept
            if self.spec.use_correlation_id:
                self._ids[batch_id] = batch_ids
        if rejected:
            self._consumer.call(lambda channel: [channel.basic_reject(t, requeue=False)
                                                 for t in rejected], "rejecting duplicates")
        self._drained(len(deliveries))
        return kept

    def _drained(self, consumed: int) -> None:
        """Forgets the earlier runs' ids once every redelivery of theirs was consumed."""
        if not self._earlier:
            return
        self._left_to_drain -= consumed
        if self._left_to_drain <= 0:
            for batch_id in self._earlier:
                self._ids.pop(batch_id, None)
            self._earlier.clear()
            self._state["drained_below"] = self._session
            self._state["acked"] = {s: n for s, n in self._state["acked"].items()
                                    if int(s) >= self._session}
            self._save_state()

    def frame(self, plan: List[Message], session):
        """Split rows of the batch's messages for subtask 0, decoded in a Spark task."""
        from pyflink_on_spark.runtime.boundary import KIND_SPLIT
        from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_frame
        if not plan:
            return rows_frame(session, [])
        rows = [(-1, 0, 0, k, KIND_SPLIT,
                 pickle.dumps([body for body, _ in plan[start:start + CHUNK_MESSAGES]],
                              protocol=5))
                for k, start in enumerate(range(0, len(plan), CHUNK_MESSAGES))]
        return rows_frame(session, rows).mapInArrow(_decoder(self.spec.value_decoder),
                                                    SPARK_SCHEMA)

    def compact(self, before: int) -> None:
        """Acknowledges the batches whose checkpoint completed, then drops the records no
        re-run and no deduplication needs."""
        completed = self.store.versions()
        done = [b for b in sorted(self._pending) if completed and b <= completed[-1]]
        if done and self._consumer is not None:
            last_tag = self._pending[done[-1]]
            queue_name = self.spec.queue_name

            def acknowledge(channel):
                channel.basic_ack(last_tag, multiple=True)
                # a synchronous method on the same channel: answered after the ack
                channel.queue_declare(queue_name, durable=True, passive=True)
            self._consumer.call(acknowledge, "acknowledging a completed batch's messages")
            for b in done:
                del self._pending[b]
                if b not in self._earlier:
                    self._ids.pop(b, None)
            self._state["acked"][str(self._session)] = done[-1]
            self._save_state()
        for batch_id in self._logs():
            if batch_id < before and batch_id not in self._ids and batch_id not in self._pending:
                self.store.delete_file(self._log_path(batch_id))

    def close(self) -> None:
        if self._consumer is not None:
            self._consumer.stop()
            self._consumer = None


def _decoder(decode):
    import functools
    return functools.partial(_decode_chunks, decode)


def _decode_chunks(decode, batches):
    """mapInArrow: each row's message bodies decoded by the DeserializationSchema (None:
    skipped, as a Kafka record's)."""
    import pyarrow as pa
    from pyflink_on_spark.spark.batch_schema import ARROW_SCHEMA
    for batch in batches:
        if batch.num_rows == 0:
            continue
        payloads = batch.column(5).to_pylist()
        decoded = []
        for payload in payloads:
            values = [decode(body) for body in pickle.loads(payload)]
            decoded.append(pickle.dumps([v for v in values if v is not None], protocol=5))
        columns = [batch.column(i) for i in range(5)] + \
            [pa.array(decoded, pa.binary()), batch.column(6)]
        yield pa.RecordBatch.from_arrays(columns, schema=ARROW_SCHEMA)
