"""The source of the exits' per-record loops: one template per loop, with named hooks.

Why the loops are generated: every record leaving a stage runs its exit's loop, and what
differs between exits (a map fused into the exit or none, the declared type's converter
and its test, a key function and key -> subtask map or a channel selector, whether the
exit keeps timestamps, how a key-sorted exit holds a key's records) is settled when the
exit is built. The loop's source has only the steps its exit takes, inline: a step chosen
per record, or a Python call per step, would cost per record what the benchmarks' floor
forbids (the converter's test inline rather than called: map_keyby_reduce's exit, engine
alone, 0.71 -> 0.64 us per record; no dispatching frame per call for the usual loop).

A template is plain Python with named hooks, `$name` (loops.fill fills them, loops.
compile_loop compiles the result once per distinct source):
* a hook alone on its line takes a snippet of lines, each indented as the hook was; an
  empty snippet leaves no line;
* a hook inside a line takes a piece of one line (a name, an argument list).
A snippet is put in as it is (its own hooks are filled before, where it is chosen).
`$prepare`, in every loop, is filled by loops.prepare_source: the fused map, then the
declared type's test and converter; they leave `value` converted and `exact_value` set.
The names the code uses (values_by, get_key, flush...) come from the namespace the exit
passes to compile_loop.
"""
from __future__ import annotations

# ---- the loop of an exit that chunks records per destination (chunked.py) ----
#
# $name      process_many or process_stamped: the method the loop becomes
# $times     its second argument: `timestamp` (one for all records) or `stamps` (one each)
# $each      what the `for` takes: the values, or (value, timestamp) pairs
# $prologue  what the call does first: switch to the loop that keeps timestamps
#            (TO_STAMPED, BEGIN_STAMPS), or nothing (`pass`)
# $bulk      a keyed exit's switch to the two-step loop (BULK_SWITCH), or `pass`
# $route     sets `dest`: the keyed exit's key and subtask (KEYED_ROUTE), else the
#            channel selector's call (SELECTED_ROUTE)
# $stamp     keeps the record's timestamp (STAMP), or `pass`
# $mark      marks the destination's chunk as holding a value not known exact (MARK_UNSURE),
#            or `pass` where the loop has no test (every chunk is checked then)
CHUNKED_LOOP = """
def $name(records, $times):
    $prologue
    $bulk
    for $each:
        $prepare
        try:
            $route
        except Exception as e:
            raise blame_selector(user_error(e), partitioning, e) from None
        values = values_by[dest]
        values.append(value)
        $stamp
        $mark
        if len(values) >= CHUNK_RECORDS:
            flush(dest)
"""

# ---- the loop of an exit with assign_timestamps_and_watermarks fused in (chunked.py) ----
#
# One loop per slice of records (a map's input, when the map is fused in too: operators/
# timestamps.py): $prepare runs the map, the timestamp assigner and the generator's check
# (STAMP_SOURCE), then the converter; the record goes on with its timestamp. `high` is
# the largest timestamp met, handed to the operator in `seen` however the loop ends.
# $prologue, $bulk, $route and $mark as CHUNKED_LOOP's (with FUSED_STAMPS).
FUSED_STAMPED_LOOP = """
def process_fused(records, record_timestamp):
    $prologue
    $bulk
    high = None
    try:
        for value in records:
            $prepare
            try:
                $route
            except Exception as e:
                raise blame_selector(user_error(e), partitioning, e) from None
            values = values_by[dest]
            values.append(value)
            stamps_by[dest].append(timestamp)
            $mark
            if len(values) >= CHUNK_RECORDS:
                flush(dest)
    finally:
        seen[0] = high
"""

# The record's timestamp from the assigner (its errors through stamp_error), before the
# converter (the assigner takes what the map returned, as the operator did), and the
# watermark generator's check: the largest timestamp is kept in `high` (the generator keeps
# the largest it saw); None, the first of a slice and any that does not compare go through
# stamp_event (the generator is told, and what it cannot take fails at this record).
STAMP_SOURCE = """try:
    timestamp = extract(value, record_timestamp)
except Exception as e:
    raise stamp_error(e) from None
try:
    if timestamp > high:
        high = timestamp
except Exception:
    high = stamp_event(high, timestamp)"""

# The hooks of a loop over a call's records that share one timestamp (process_many,
# bulk_many) and of one over records with a timestamp each (process_stamped, bulk_stamped:
# what assign_timestamps_and_watermarks stamped, a slice at a time). $bulk_loop, $start_kept,
# $keep and $route_times are BULK_LOOP's.
ONE_TIMESTAMP = {"times": "timestamp", "each": "value in records", "bulk_loop": "bulk_many",
                 "start_kept": "", "keep": "", "route_times": "timestamp, None",
                 "end_kept": ""}
OWN_TIMESTAMPS = {"times": "stamps", "each": "value, timestamp in zip(records, stamps)",
                  "bulk_loop": "bulk_stamped", "start_kept": "kept = []",
                  "keep": "kept.append(timestamp)", "route_times": "None, kept",
                  "end_kept": ""}
# (the fused loop's: each record's timestamp from the assigner, STAMP_SOURCE)
FUSED_STAMPS = {"times": "record_timestamp", "each": "value in records",
                "bulk_loop": "bulk_fused", "start_kept": "kept = []\nhigh = None",
                "keep": "kept.append(timestamp)", "route_times": "None, kept",
                "end_kept": "seen[0] = high"}

# the exit starts keeping timestamps at the first record with one (the usual loop's)
TO_STAMPED = """if timestamp is not None or stamped_state[0]:
    return to_stamped(records, timestamp)"""
# the loop over records with a timestamp each keeps them from its first call
BEGIN_STAMPS = """if not stamped_state[0]:
    begin_stamps()"""
# fill with ONE_TIMESTAMP or OWN_TIMESTAMPS
BULK_SWITCH = """if bulk[0]:
    return $bulk_loop(records, $times)"""
SELECTED_ROUTE = "dest = select(value)"
STAMP = "stamps_by[dest].append(timestamp)"
MARK_UNSURE = """if not exact_value:
    unsure[dest] = True"""

# a str or int key is one marshal writes as it is: only a chunk that got a key of another
# class has its keys checked before marshal (keys_unsure; chunked.py _flush)
KEYED_ROUTE = """key = get_key(value)
kind = key.__class__
if kind is str or kind is int:
    dest = dest_of.get(key)
    if dest is None:
        if len(dest_of) >= memo_limit:
            dest_of.clear()
        dest = dest_of[key] = to_subtask(key)
        misses[0] += 1
        if misses[0] >= BULK_AFTER_MISSES:
            misses[0] = 0
            bulk[0] = True
elif kind is tuple:
    try:
        found = tuple_dest_of.get(key)
    except TypeError:   # something unhashable inside: to_subtask hashes it by its pickle
        found = None
    if found is not None and found[1] == tuple(map(type, key)):
        dest = found[0]
    else:
        dest = tuple_dest(key)
        misses[0] += 1
        if misses[0] >= BULK_AFTER_MISSES:
            misses[0] = 0
            bulk[0] = True
    keys_unsure[dest] = True
else:
    dest = to_subtask(key)
    keys_unsure[dest] = True
keys_by[dest].append(key)"""

# ---- the first step of a keyed exit's call of many new keys (bulk_keys.py) ----
#
# $bulk_loop, $times, $each  as CHUNKED_LOOP's $name, $times, $each (ONE_TIMESTAMP,
#                            OWN_TIMESTAMPS)
# $start_kept, $keep         keep each record's timestamp (OWN_TIMESTAMPS), or nothing
# $end_kept                  the fused loop's end (FUSED_STAMPS), or nothing
# $route_times               route()'s timestamp and stamps arguments
BULK_LOOP = """
def $bulk_loop(records, $times):
    keys = []
    values = []
    exacts = []
    $start_kept
    try:
        for $each:
            $prepare
            try:
                key = get_key(value)
            except Exception as e:
                raise blame_selector(user_error(e), partitioning, e) from None
            keys.append(key)
            values.append(value)
            exacts.append(exact_value)
            $keep
    finally:
        $end_kept
        route(keys, values, exacts, $route_times)
"""

# ---- the loops of a key-sorted exit (key_sorted.py) ----
#
# $name, $times, $each  as CHUNKED_LOOP's (process_many with ONE_TIMESTAMP, process_stamped
#               with OWN_TIMESTAMPS)
# $str_int_key  holds a record without timestamp whose key is a str or an int: in its key's
#               slot (OBJECT_SLOT, MARSHALLED_SLOT), or folded (FOLDING_SLOT), under `key`
# $tuple_key    the same for a flat tuple key of memoised classes, under `slot_key`
# $stamped_key  holds a record with a timestamp (STAMPED_SLOT)
# $begin, $end  what the call does first and last: nothing, or the fused loop's (KEY_SORTED_
#               FUSED: `high`, the largest timestamp met, handed to the operator in `seen`)
# (process_fused, the loop with assign_timestamps_and_watermarks fused in, takes `value in
# records` and `record_timestamp`, with STAMP_SOURCE in its $prepare)
KEY_SORTED_LOOP = """
def $name(records, $times):
    count = counted[0]
    $begin
    try:
        for $each:
            $prepare
            try:
                key = get_key(value)
                if timestamp is None:
                    kind = key.__class__
                    if kind is str or kind is int:
                        $str_int_key
                    elif kind in memo_types:
                        slot_key = (kind, key)
                        slot = slots.get(slot_key)
                        if slot is None:
                            slot = new_slot(key, slot_key)
                        slot.append(value)
                    elif kind is tuple and memo_types.issuperset(map(type, key)):
                        # a flat tuple: its elements' classes keep (1, "a") and (True, "a")
                        # apart; its slot is kept as a str or int key's is, under slot_key
                        slot_key = (tuple(map(type, key)), key)
                        $tuple_key
                    else:
                        hold_other(key, value, None)
                else:
                    $stamped_key
            except Exception as e:
                raise blame_selector(user_error(e), partitioning, e) from None
            count += 1
            if count >= limit:
                count = flush(True)
    finally:
        counted[0] = count
        $end
"""
# $begin and $end of the usual loops, and of the fused one
KEY_SORTED_PLAIN = {"begin": "", "end": ""}
KEY_SORTED_FUSED = {"name": "process_fused", "times": "record_timestamp",
                    "each": "value in records", "begin": "high = None",
                    "end": "seen[0] = high"}

# a record with a timestamp joins its key's stamped slot ([values, timestamps, key, place,
# whether the values wait marshalled]): an exact one marshalled at once while its key's do
# (the objects of 128k records held, and marshalled when they have left the caches, cost
# the source stage of window_aggregate in BATCH ~1.5x STREAMING's); a str
# or int key's inline, the others' (and any key's while a BATCH reduce's folds are kept,
# whose rows a record at Long.MIN_VALUE sorts with) through hold_stamped
STAMPED_SLOT = """kind = key.__class__
if (kind is str or kind is int) and not folds:
    slot = stamped.get(key)
    if slot is None:
        slot = new_stamped(key)
    if exact_value and slot[4]:
        slot[0].append(dumps(value, marshal_version))
    else:
        if slot[4]:
            as_objects(slot)
        slot[0].append(value)
    slot[1].append(timestamp)
else:
    hold_stamped(key, value, timestamp)"""

# The snippets for $str_int_key and $tuple_key. Their hooks: $slot_key, the name the key's
# slot, fold and marshalled records are held under (`key`, or `slot_key`); $add, how a
# record joins its slot (ADD_TO_SLOT, ADD_TO_PARTIAL); $plain, FOLDING_SLOT's usual path
# (OBJECT_SLOT or MARSHALLED_SLOT, filled).
OBJECT_SLOT = """slot = slots.get($slot_key)
if slot is None:
    slot = new_slot(key, $slot_key)
$add"""
ADD_TO_SLOT = "slot.append(value)"
ADD_TO_PARTIAL = """if add_to_partial(slot, value):
    continue"""

# an exact record is marshalled at once, unless its key's records wait as objects
MARSHALLED_SLOT = """if exact_value:
    slot = marshalled.get($slot_key)
    if slot is None:
        slot = new_marshalled_slot(key, $slot_key)
    if slot is not None:
        slot.append(dumps(value, marshal_version))
    else:
        slots[$slot_key].append(value)
else:
    slot = slots.get($slot_key)
    if slot is None:
        slot = new_slot(key, $slot_key)
    slot.append(value)"""

# upstream subtask 0 into a BATCH reduce (ExitSpec.leading_fold): a key's records are
# folded as they come, while no fold has left before the end
FOLDING_SLOT = """acc = folds.get($slot_key)
if acc is not None:
    if acc[0] is None:
        acc[0] = value
    else:
        try:
            acc[0] = fold(acc[0], value)
        except Exception as e:
            raise fold_error(e, $slot_key) from None
    continue
if folding[0]:
    new_fold(key, value, $slot_key)
else:
    $plain"""
