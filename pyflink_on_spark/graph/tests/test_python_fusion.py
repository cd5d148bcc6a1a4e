"""Links inside a stage convert a record to its declared type where PyFlink does not fuse the
two Python operators (graph/python_fusion.py): a second consumer, a dangling consumer, a
requested side output. Compat case basic/record_shape_at_operator_boundaries checks what
the functions then see against PyFlink."""
from pyflink_on_spark.common import Row, Types
from pyflink_on_spark.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment

T = Types.ROW_NAMED(["id", "ok"], [Types.INT(), Types.BOOLEAN()])
S = Types.STRING()
TAG = OutputTag("side", S)


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        yield Row(value, True)
        yield TAG, "s"


def _env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env


def _links_from(env, name):
    """(target name, converts?) of the main-output links leaving the operator `name`."""
    job = env._compile(env._job_sinks(list(env._sinks)))   # with the operators no sink reads
    found = []
    for stage in job.stages:
        names = {op.node_id: op.name for op in stage.spec.operators}
        for link in stage.spec.links:
            if names.get(link.source) == name and link.side_tag is None:
                found.append((names[link.target], link.converter is not None))
    return sorted(found)


def _rows(env):
    return env.from_collection([1], type_info=Types.INT()).map(
        lambda v: Row(v, False), output_type=T).name("rows")


def test_a_functions_only_consumer_gets_the_object_as_returned():
    env = _env()
    _rows(env).map(str, output_type=S).name("next").print()
    assert _links_from(env, "rows") == [("next", False)]


def test_every_consumer_of_an_operator_with_two_gets_the_declared_type():
    env = _env()
    rows = _rows(env)
    rows.map(str, output_type=S).name("a").print()
    rows.filter(lambda c: c.ok).name("b").print()
    assert _links_from(env, "rows") == [("a", True), ("b", True)]


def test_a_map_no_sink_reads_counts_as_a_consumer():
    env = _env()
    rows = _rows(env)
    rows.map(lambda c: c).name("dangling")
    rows.map(str, output_type=S).name("read").print()
    assert ("read", True) in _links_from(env, "rows")


def test_a_requested_side_output_makes_the_main_output_serialized():
    env = _env()
    main = env.from_collection([1], type_info=Types.INT()).process(Split(), output_type=T) \
        .name("split")
    main.get_side_output(TAG)
    main.map(str, output_type=S).name("next").print()
    assert _links_from(env, "split") == [("next", True)]


def test_a_print_is_a_sink_that_renders_its_input_itself():
    env = _env()
    rows = _rows(env)
    rows.print()
    rows.map(str, output_type=S).name("next").print()
    links = _links_from(env, "rows")
    assert ("next", True) in links
    assert all(not converts for target, converts in links if target != "next")
