"""The record a function returns reaches the next Python function as its declared type says
wherever PyFlink does not fuse the two into one Python operator (issue 43, "record shape
follows the declared type"): a positional Row under a ROW_NAMED type gets its names, a dict
under a MAP type comes back in Java HashMap order, a tuple under a Row type fails. PyFlink
fuses a function with its one consumer (same chain, the consumer's only input); an operator
with a second consumer (a print, a dangling map, a side output requested by
get_side_output), a union or connect after it, or a new chain is a boundary. Each variant's
lines are collected and sorted (the order of blocks is another rule)."""
from pyflink.common import Row, Types
from pyflink.datastream import (CoMapFunction, OutputTag, ProcessFunction,
                                StreamExecutionEnvironment)

T = Types.ROW_NAMED(["id", "ok"], [Types.INT(), Types.BOOLEAN()])
S = Types.STRING()
tag = OutputTag("side", Types.STRING())


class Split(ProcessFunction):
    def process_element(self, v, ctx):
        yield Row(v, v % 2 == 0)
        yield tag, "s%d" % v


class Both(CoMapFunction):
    def map1(self, v):
        return "co1 %r" % (v,)

    def map2(self, v):
        return "co2 %r" % (v,)


def show(label):
    return lambda c: "%s %r" % (label, c)


def run(name, build):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    numbers = env.from_collection([1, 2], type_info=Types.INT())
    try:
        lines = sorted(build(env, numbers).execute_and_collect())
    except Exception as e:   # a coder failure: the job fails, on PyFlink as on the shim
        lines = ["job failed: %s" % ("get_fields_by_names" in str(e))]
    print("-- %s" % name)
    for line in lines:
        print(line)


def positional(numbers):
    return numbers.map(lambda v: Row(v, v % 2 == 0), output_type=T)


def one_consumer(env, numbers):
    return positional(numbers).map(show("fused"), output_type=S)


def two_consumers(env, numbers):
    rows = positional(numbers)
    return rows.map(show("a"), output_type=S).union(rows.map(show("b"), output_type=S))


def filter_by_name_in_another_branch(env, numbers):
    rows = numbers.flat_map(lambda v: [Row(v, v % 2 == 0)], output_type=T)
    return rows.map(show("all"), output_type=S).union(
        rows.filter(lambda c: not c.ok).map(show("not ok"), output_type=S))


def dangling_consumer(env, numbers):
    rows = positional(numbers)
    rows.map(lambda c: c)
    return rows.map(show("next to a dangling map"), output_type=S)


def side_output_requested(env, numbers):
    main = numbers.process(Split(), output_type=T)
    main.get_side_output(tag)
    return main.map(show("main"), output_type=S)


def three_fused_then_two(env, numbers):
    kept = positional(numbers).filter(lambda c: True)
    return kept.map(show("a"), output_type=S).union(kept.map(show("b"), output_type=S))


def union_of_rows(env, numbers):
    other = numbers.map(lambda v: Row(v + 10, True), output_type=T)
    return positional(numbers).union(other).map(show("union"), output_type=S)


def connected(env, numbers):
    other = numbers.map(lambda v: Row(v + 10, True), output_type=T)
    return positional(numbers).connect(other).map(Both(), output_type=S)


def new_chain(env, numbers):
    return positional(numbers).map(show("new chain"), output_type=S).start_new_chain()


def dict_one_consumer(env, numbers):
    maps = numbers.map(lambda v: {"b": v, "a": 2, "zz": 3, "c": 4},
                       output_type=Types.MAP(S, Types.INT()))
    return maps.map(lambda d: "fused %r" % (list(d),), output_type=S)


def dict_two_consumers(env, numbers):
    maps = numbers.map(lambda v: {"b": v, "a": 2, "zz": 3, "c": 4},
                       output_type=Types.MAP(S, Types.INT()))
    return maps.map(lambda d: "a %r" % (list(d),), output_type=S).union(
        maps.map(lambda d: "b %r" % (list(d),), output_type=S))


def tuple_as_row_two_consumers(env, numbers):
    rows = numbers.map(lambda v: (v, True), output_type=T)
    return rows.map(show("a"), output_type=S).union(rows.map(show("b"), output_type=S))


def tuple_as_row_one_consumer(env, numbers):
    return numbers.map(lambda v: (v, True), output_type=T).map(show("fused"), output_type=S)


for case in (one_consumer, two_consumers, filter_by_name_in_another_branch, dangling_consumer,
             side_output_requested, three_fused_then_two, union_of_rows, connected, new_chain,
             dict_one_consumer, dict_two_consumers, tuple_as_row_two_consumers,
             tuple_as_row_one_consumer):
    run(case.__name__, case)
