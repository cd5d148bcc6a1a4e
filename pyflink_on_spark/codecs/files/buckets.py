"""Bucket assigners: the sub-directory of the base path a record is written to."""
from __future__ import annotations

import datetime
import re
from typing import Optional


class BasePathBuckets:
    """BasePathBucketAssigner: every record in the base path itself."""

    def bucket_id(self, value, now_ms: int) -> str:
        return ""

    def __repr__(self) -> str:
        return "BasePathBucketAssigner"


# Java DateTimeFormatter pattern letters -> strftime (the subset bucket formats use)
_JAVA_FIELDS = {
    "yyyy": "%Y", "uuuu": "%Y", "yy": "%y", "MM": "%m", "dd": "%d", "HH": "%H", "mm": "%M",
    "ss": "%S", "DDD": "%j", "MMM": "%b", "EEE": "%a",
}
_PATTERN_TOKEN = re.compile(r"'([^']*)'|([A-Za-z])\2*|([^A-Za-z']+)")


def java_pattern_to_strftime(pattern: str) -> str:
    out = []
    for match in _PATTERN_TOKEN.finditer(pattern):
        literal, _, other = match.groups()
        text = match.group(0)
        if literal is not None:
            out.append(literal.replace("%", "%%") if literal else "'")
        elif other is not None:
            out.append(other.replace("%", "%%"))
        elif text in _JAVA_FIELDS:
            out.append(_JAVA_FIELDS[text])
        elif set(text) == {"S"}:
            out.append("\ue000S%d\ue000" % len(text))  # fraction of second, filled in below
        else:
            raise ValueError("DateTimeBucketAssigner: the pattern letter run %r of %r is not "
                             "supported by pyflink_on_spark (supported: %s, S...)"
                             % (text, pattern, ", ".join(sorted(_JAVA_FIELDS))))
    return "".join(out)


def _zone(timezone_id: Optional[str]):
    if timezone_id is None:
        return None  # the system default time zone, as Java's ZoneId.systemDefault()
    offset = re.fullmatch(r"(?:GMT|UTC|UT)?([+-])(\d{1,2})(?::?(\d{2}))?", timezone_id)
    if offset:
        sign = -1 if offset.group(1) == "-" else 1
        delta = datetime.timedelta(hours=int(offset.group(2)), minutes=int(offset.group(3) or 0))
        return datetime.timezone(sign * delta)
    if timezone_id in ("UTC", "GMT", "Z", "UT"):
        return datetime.timezone.utc
    from zoneinfo import ZoneInfo
    return ZoneInfo(timezone_id)


class DateTimeBuckets:
    """DateTimeBucketAssigner: the current processing time formatted with a Java pattern
    (default "yyyy-MM-dd--HH", one bucket per hour) in a time zone (default: the system's)."""

    def __init__(self, format_str: str = "yyyy-MM-dd--HH", timezone_id: Optional[str] = None):
        self.format_str = format_str
        self.timezone_id = timezone_id
        self._strftime = java_pattern_to_strftime(format_str)
        _zone(timezone_id)  # fail now on an unknown zone

    def __getstate__(self):
        return {"format_str": self.format_str, "timezone_id": self.timezone_id}

    def __setstate__(self, state):
        self.__init__(state["format_str"], state["timezone_id"])

    def bucket_id(self, value, now_ms: int) -> str:
        moment = datetime.datetime.fromtimestamp(now_ms / 1000.0, tz=_zone(self.timezone_id))
        text = moment.strftime(self._strftime)
        if "\ue000" in text:
            def fraction(match):
                digits = int(match.group(1))
                return ("%06d" % moment.microsecond + "000")[:digits]
            text = re.sub("\ue000S(\\d+)\ue000", fraction, text)
        return text

    def __repr__(self) -> str:
        return "DateTimeBucketAssigner(%r, %r)" % (self.format_str, self.timezone_id)
