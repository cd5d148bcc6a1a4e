"""Records -> `_bulk` actions, as PyFlink 1.20's emitter (Flink's MapElasticsearchEmitter,
flink-connector-elasticsearch 3.0.1) builds them:

- the index is the emitter's name, or with `dynamic_index` the record's field of that name
  (Java's toString of its value);
- with a key field: an update of the document whose id is the key field's value, the record
  as both `doc` and `upsert` (the document is created, or its fields overwritten);
- without: an index action with an id chosen by Elasticsearch;
- a document type, when given, goes with each action as `_type` (Elasticsearch 6; 7 takes
  one custom type per index, with a deprecation warning).

A record is a dict (PyFlink hands the Java sink a java.util.Map: the stream's type is
Types.MAP(...)); its values go into the JSON document as Jackson writes them.
"""
from __future__ import annotations

import base64
import datetime
import decimal
import json
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from pyflink_on_spark.common._java_text import java_double_str


@dataclass(frozen=True)
class EmitterSettings:
    """ElasticsearchEmitter.static_index / dynamic_index's arguments."""
    index: str                        # the index, or the record field naming it
    dynamic_index: bool = False
    key_field: Optional[str] = None
    doc_type: Optional[str] = None


class ActionError(ValueError):
    """A record that cannot become an action (not a dict, a missing index or key field)."""


def java_to_string(value: Any) -> str:
    """Object.toString() of the Java value PyFlink hands over for `value`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return java_double_str(value)
    return str(value)


def _json_default(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")   # Jackson's byte[] form
    raise TypeError("a %s cannot go into an Elasticsearch document (JSON): %r"
                    % (type(value).__name__, value))


def _field(record: Dict[Any, Any], name: str, role: str) -> str:
    value = record.get(name)
    if value is None:
        raise ActionError("the record has no value for %r, the emitter's %s (Flink fails with "
                          "a NullPointerException): %r" % (name, role, record))
    return java_to_string(value)


def encode_action(settings: EmitterSettings, record: Any) -> Tuple[bytes, str]:
    """(the action's two NDJSON lines, a short description naming it for error messages)."""
    if not isinstance(record, dict):
        raise ActionError("ElasticsearchEmitter: each record must be a dict (declare the stream "
                          "Types.MAP(...)); PyFlink hands the sink a java.util.Map. Got a %s: %r"
                          % (type(record).__name__, record))
    index = _field(record, settings.index, "index field") if settings.dynamic_index \
        else settings.index
    meta: Dict[str, str] = {"_index": index}
    if settings.doc_type is not None:
        meta["_type"] = settings.doc_type
    source = json.dumps(record, default=_json_default, ensure_ascii=False,
                        separators=(",", ":"))
    if settings.key_field is not None:
        meta["_id"] = _field(record, settings.key_field, "key field")
        action = "update"
        body = '{"doc":%s,"upsert":%s}' % (source, source)
        described = "update {[%s][%s][%s], doc[%s]}" % (index, settings.doc_type or "_doc",
                                                         meta["_id"], _shorten(source))
    else:
        action = "index"
        body = source
        described = "index {[%s][%s][null], source[%s]}" % (index, settings.doc_type or "_doc",
                                                              _shorten(source))
    line = json.dumps({action: meta}, ensure_ascii=False, separators=(",", ":"))
    return (line + "\n" + body + "\n").encode("utf-8"), described


def _shorten(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
