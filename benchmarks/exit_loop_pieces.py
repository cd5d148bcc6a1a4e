"""What a record costs in the fused source loop of a keyed exit, piece by piece (issue 41).

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/exit_loop_pieces.py VARIANT --records N

A plain copy of the loop the exits compile for window_aggregate's source stage (a map,
assign_timestamps_and_watermarks and a keyed exit of a declared tuple of two LONGs: runtime/
exits/templates.py FUSED_STAMPED_LOOP with KEYED_ROUTE, as at 59a1ea6), over N records in
calls of 1000, its user functions the job's (to_pair, a TimestampAssigner's method, a
lambda key). Each VARIANT takes one piece out (or, `before`, puts the len() test back);
the instructions of N = 20000 less those of N = 0 (`bare`), over N, are a record's. No
marshal, no chunk leaving: chunks are dropped when full.

variants: full, before (the exact test with len(), as before 59a1ea6), no_exact (the
exact test and the converter's branch gone), no_range (the fields' int64 range left out),
no_high (the watermark's largest-timestamp check gone), no_dest (the key's subtask a
constant instead of the memo's dict.get), no_appends (the key's and timestamp's appends
gone), subscript (the memo read as dest_of[key] in a try instead of .get), inline_user
(the three user calls written inline), user_only (a loop of the three user calls alone),
bare (an empty loop: the base)
"""
from __future__ import annotations

import argparse

LOOP = '''
def process_fused(records, record_timestamp):
    high = None
    try:
        for value in records:
            try:
                value = user_map(value)
            except Exception as e:
                raise map_error(e) from None
            try:
                timestamp = extract(value, record_timestamp)
            except Exception as e:
                raise stamp_error(e) from None
            try:
                if timestamp > high:
                    high = timestamp
            except Exception:
                high = stamp_event(high, timestamp)
            exact_value = False
            if value.__class__ is tuple:
                try:
                    _f0, _f1, = value
                except ValueError:
                    pass
                else:
                    exact_value = (_f0.__class__ is int and -9223372036854775808 <= _f0 <= 9223372036854775807) and (_f1.__class__ is int and -9223372036854775808 <= _f1 <= 9223372036854775807)
            if not exact_value:
                try:
                    value = convert(value)
                except Exception as e:
                    raise user_error(e) from None
            try:
                key = get_key(value)
                kind = key.__class__
                if kind is str or kind is int:
                    dest = dest_of.get(key)
                    if dest is None:
                        raise LookupError(key)
                else:
                    dest = to_subtask(key)
                    keys_unsure[dest] = True
                keys_by[dest].append(key)
            except Exception as e:
                raise blame_selector(user_error(e), partitioning, e) from None
            values = values_by[dest]
            values.append(value)
            stamps_by[dest].append(timestamp)
            if not exact_value:
                unsure[dest] = True
            if len(values) >= CHUNK_RECORDS:
                flush(dest)
    finally:
        seen[0] = high
'''
TEST = '''            if value.__class__ is tuple:
                try:
                    _f0, _f1, = value
                except ValueError:
                    pass
                else:
                    exact_value = '''
RANGES = ("(_f0.__class__ is int and -9223372036854775808 <= _f0 <= 9223372036854775807) and "
          "(_f1.__class__ is int and -9223372036854775808 <= _f1 <= 9223372036854775807)")
EXACT = '''            exact_value = False
%s%s
            if not exact_value:
                try:
                    value = convert(value)
                except Exception as e:
                    raise user_error(e) from None
''' % (TEST, RANGES)
HIGH = '''            try:
                if timestamp > high:
                    high = timestamp
            except Exception:
                high = stamp_event(high, timestamp)
'''
VARIANTS = {
    "full": [],
    "before": [(TEST, "            if value.__class__ is tuple and len(value) == 2:\n"
                      "                _f0, _f1, = value\n                exact_value = ")],
    "no_exact": [(EXACT, "            exact_value = True\n")],
    "no_range": [(RANGES, "_f0.__class__ is int and _f1.__class__ is int")],
    "no_high": [(HIGH, "")],
    "no_dest": [("dest = dest_of.get(key)", "dest = 0")],
    "no_appends": [("keys_by[dest].append(key)", "pass"),
                   ("stamps_by[dest].append(timestamp)", "pass")],
    "subscript": [("dest = dest_of.get(key)\n",
                   "try:\n                        dest = dest_of[key]\n"
                   "                    except KeyError:\n"
                   "                        dest = None\n")],
    "inline_user": [("value = user_map(value)", "value = (value % 1000, value)"),
                    ("timestamp = extract(value, record_timestamp)", "timestamp = value[1]"),
                    ("key = get_key(value)", "key = value[0]")],
}
USER_ONLY = '''
def process_fused(records, record_timestamp):
    for value in records:
        value = user_map(value)
        timestamp = extract(value, record_timestamp)
        key = get_key(value)
'''
BARE = '''
def process_fused(records, record_timestamp):
    for value in records:
        pass
'''


def source(variant: str) -> str:
    if variant == "user_only":
        return USER_ONLY
    if variant == "bare":
        return BARE
    text = LOOP
    for old, new in VARIANTS[variant]:
        assert old in text, (variant, old)
        text = text.replace(old, new)
    return text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("variant", choices=sorted(VARIANTS) + ["user_only", "bare"])
    parser.add_argument("--records", type=int, default=20000)
    args = parser.parse_args(argv)
    keys = 1000

    def to_pair(n):
        return n % keys, n

    class Assigner:
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    width = 2
    values_by = [[] for _ in range(width)]
    stamps_by = [[] for _ in range(width)]
    keys_by = [[] for _ in range(width)]

    def flush(dest):
        values_by[dest] = []
        stamps_by[dest] = []
        keys_by[dest] = []

    scope = dict(user_map=to_pair, extract=Assigner().extract_timestamp,
                 get_key=lambda pair: pair[0], values_by=values_by, stamps_by=stamps_by,
                 keys_by=keys_by, unsure=[False] * width, keys_unsure=[False] * width,
                 dest_of={k: k % width for k in range(keys)}, flush=flush,
                 CHUNK_RECORDS=2048, seen=[None], stamp_event=lambda high, t: t)
    exec(source(args.variant), scope)
    loop = scope["process_fused"]
    for start in range(0, args.records, 1000):
        loop(range(start, min(args.records, start + 1000)), 0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
