"""The bulk writer against a scripted HTTP server on loopback (what a real node does not do on
demand: answer 429 for some items, fail one item, refuse): when requests go out, which items
are retried, and which failures fail the job with which message."""
import http.server
import json
import socket
import threading
import time

import pytest

from pyflink_on_spark.codecs.elasticsearch.actions import EmitterSettings, encode_action
from pyflink_on_spark.codecs.elasticsearch.bulk import BulkError, BulkSettings, BulkWriter


class _Node:
    """Answers each POST /_bulk with the next scripted item statuses (201 for the rest)."""

    def __init__(self):
        self.requests = []        # (path, [the ids of the request's actions], headers)
        self.script = []          # per request: {position: (status, error type)} or an int
        node = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                lines = [json.loads(line) for line in body.splitlines()]
                ids = [list(meta.values())[0]["_id"] for meta in lines[::2]]
                node.requests.append((self.path, ids, dict(self.headers)))
                step = node.script.pop(0) if node.script else {}
                if isinstance(step, int):
                    self._send(step, {"error": {"type": "es_rejected_execution_exception",
                                                "reason": "queue full"}, "status": step})
                    return
                items = []
                for i, _ in enumerate(ids):
                    status, kind = step.get(i, (201, None))
                    result = {"_index": "i", "_id": ids[i], "status": status}
                    if kind is not None:
                        result["error"] = {"type": kind, "reason": "scripted %s" % kind}
                    items.append({"update": result})
                self._send(200, {"took": 1, "errors": bool(step), "items": items})

            def _send(self, status, answer):
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = "127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def node():
    node = _Node()
    yield node
    node.close()


def _writer(host, sleeps=None, **settings):
    return BulkWriter(BulkSettings(hosts=(host,), **settings), clock=lambda: 0,
                      sleep=(sleeps.append if sleeps is not None else lambda s: None))


def _add(writer, *ids):
    for i in ids:
        writer.add(*encode_action(EmitterSettings("i", key_field="id"), {"id": str(i)}))


def test_a_bulk_goes_out_when_max_actions_are_buffered_and_at_flush(node):
    writer = _writer(node.host, max_actions=2)
    _add(writer, 1, 2, 3)
    assert [ids for _, ids, _ in node.requests] == [["1", "2"]]
    writer.flush()
    writer.flush()        # nothing pending: no request
    assert [ids for _, ids, _ in node.requests] == [["1", "2"], ["3"]]
    writer.close()


def test_minus_one_leaves_the_bulk_processors_own_limit_of_1000_actions(node):
    writer = _writer(node.host, max_actions=-1)
    _add(writer, *range(1001))
    assert [len(ids) for _, ids, _ in node.requests] == [1000]
    writer.close()


def test_max_size_mb_sends_by_size(node):
    writer = _writer(node.host, max_actions=-1, max_size_mb=1)
    big = "x" * 300_000
    for i in range(4):
        writer.add(*encode_action(EmitterSettings("i", key_field="id"),
                                  {"id": str(i), "v": big}))
    # each action is ~600 kB (doc and upsert): the second one passes 1 MB
    assert [ids for _, ids, _ in node.requests] == [["0", "1"], ["2", "3"]]
    writer.close()


def test_the_interval_sends_what_is_buffered_when_due():
    now = [0]
    writer = BulkWriter(BulkSettings(hosts=("127.0.0.1:9",), interval_ms=100),
                        clock=lambda: now[0])
    sent = []
    writer._send = lambda actions, descriptions: sent.append(len(actions))
    _add(writer, 1)
    writer.flush_if_due(99)
    assert sent == []
    writer.flush_if_due(100)
    assert sent == [1]


def test_items_rejected_with_429_are_retried_alone_as_the_backoff_says(node):
    node.script = [{1: (429, "es_rejected_execution_exception")},
                   {0: (429, "es_rejected_execution_exception")}, {}]
    sleeps = []
    writer = _writer(node.host, sleeps, backoff_type="CONSTANT", backoff_retries=3,
                     backoff_delay_ms=50)
    _add(writer, 1, 2, 3)
    writer.flush()
    assert [ids for _, ids, _ in node.requests] == [["1", "2", "3"], ["2"], ["2"]]
    assert sleeps == [0.05, 0.05]


def test_without_a_backoff_a_429_fails_the_job_naming_the_action(node):
    node.script = [{1: (429, "es_rejected_execution_exception")}]
    writer = _writer(node.host)
    _add(writer, 1, 2)
    with pytest.raises(BulkError, match=r"1 of the bulk request's actions failed.*\n.*Single "
                                        r"action update \{\[i\]\[_doc\]\[2\], doc\[.*\]\} of bulk request failed "
                                        r"with status 429: es_rejected_execution_exception"):
        writer.flush()


def test_any_other_failed_item_fails_the_job_even_with_a_backoff(node):
    node.script = [{0: (400, "mapper_parsing_exception"), 1: (429, "es_rejected")}]
    writer = _writer(node.host, backoff_type="EXPONENTIAL", backoff_retries=5,
                     backoff_delay_ms=1)
    _add(writer, 1, 2)
    with pytest.raises(BulkError) as failure:
        writer.flush()
    assert "update {[i][_doc][1], doc[{\"id\":\"1\"}]} of bulk request failed with status 400: " \
           "mapper_parsing_exception: scripted mapper_parsing_exception" in str(failure.value)
    assert "update {[i][_doc][2], doc[{\"id\":\"2\"}]} of bulk request failed with status 429" in str(failure.value)
    assert len(node.requests) == 1


def test_a_whole_request_answered_429_is_retried_then_fails(node):
    node.script = [429, 429, 429]
    writer = _writer(node.host, backoff_type="CONSTANT", backoff_retries=2, backoff_delay_ms=0)
    _add(writer, 1)
    with pytest.raises(BulkError, match="Complete bulk has failed: the node answered 429"):
        writer.flush()
    assert len(node.requests) == 3


def test_an_http_error_fails_the_whole_bulk_with_the_nodes_reason(node):
    node.script = [500]
    writer = _writer(node.host)
    _add(writer, 1)
    with pytest.raises(BulkError, match="Complete bulk has failed: the node answered HTTP 500: "
                                        "es_rejected_execution_exception: queue full"):
        writer.flush()


def test_credentials_and_path_prefix_go_with_each_request(node):
    writer = _writer(node.host, username="elastic", password="secret", path_prefix="/es/")
    _add(writer, 1)
    writer.flush()
    path, _, headers = node.requests[0]
    assert path == "/es/_bulk"
    assert headers["Authorization"] == "Basic ZWxhc3RpYzpzZWNyZXQ="
    assert headers["Content-Type"] == "application/x-ndjson"


def test_an_unreachable_node_fails_at_once_naming_each_host():
    with socket.socket() as s:         # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    writer = BulkWriter(BulkSettings(hosts=("127.0.0.1:%d" % port, "http://127.0.0.1:9")))
    _add(writer, 1)
    started = time.monotonic()
    with pytest.raises(BulkError, match=r"Complete bulk has failed: no Elasticsearch node "
                                        r"answered at 127.0.0.1:%d \(ConnectionRefusedError.*"
                                        r"127.0.0.1:9 \(.*check set_hosts" % port):
        writer.flush()
    assert time.monotonic() - started < 5


def test_the_next_host_is_tried_when_one_is_down(node):
    writer = BulkWriter(BulkSettings(hosts=("127.0.0.1:9", node.host)))
    _add(writer, 1)
    writer.flush()
    assert [ids for _, ids, _ in node.requests] == [["1"]]
