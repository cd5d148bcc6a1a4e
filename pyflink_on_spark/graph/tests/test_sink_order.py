"""The order of a stage's sinks and of a union's inputs: PyFlink's at parallelism 1 (the end of
input goes through a task depth first, each operator's outputs in creation order, hidden maps
counted; docs/compatibility.md, "The order of sinks and of a union's inputs"). Compat cases
ordering/* check the printed output against PyFlink's."""
from pyflink_on_spark.common import Row, Types
from pyflink_on_spark.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment

S, I = Types.STRING(), Types.INT()


class Keep(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


def _env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env


def _printed(env):
    """The identifiers of the print sinks, stage by stage, in the order their exits leave."""
    job = env._compile(env._sinks)
    return [[exit.sink.identifier for exit in stage.sinks] for stage in job.stages]


def test_sinks_of_a_stage_follow_creation_order_not_print_calls():
    env = _env()
    s = env.from_collection([1], type_info=I)
    m1, m2, m3 = (s.map(lambda x: str(x), S) for _ in range(3))
    m3.print("m3")
    m1.print("m1")
    m2.print("m2")
    assert _printed(env) == [["m1", "m2", "m3"]]


def test_print_on_an_untyped_stream_takes_the_place_of_its_print_call():
    env = _env()
    s = env.from_collection([1], type_info=I)
    m1 = s.map(lambda x: x)                   # untyped: print() adds a map when called
    m2 = s.map(lambda x: str(x), S)
    m3 = s.map(lambda x: str(x), S)
    m3.print("m3")
    m1.print("m1")
    m2.print("m2")
    assert _printed(env) == [["m2", "m3", "m1"]]


def test_side_output_map_counts_where_get_side_output_is_called():
    tag = OutputTag("t", S)
    env = _env()
    p = env.from_collection([1], type_info=I).process(Keep())
    side = p.get_side_output(tag)
    p.print("main")
    side.print("side")
    assert _printed(env) == [["side", "main"]]

    env = _env()
    p = env.from_collection([1], type_info=I).process(Keep())
    p.print("main")
    p.get_side_output(tag).print("side")
    assert _printed(env) == [["main", "side"]]


def test_a_typed_output_prints_before_the_python_operators_behind_it():
    tag = OutputTag("t", S)
    env = _env()
    p = env.from_collection([1], type_info=I).process(Keep(), output_type=S)
    side = p.get_side_output(tag)
    side.print("side")
    p.print("main")
    assert _printed(env) == [["main", "side"]]


def test_depth_first_with_joined_python_operators_placed_at_the_last():
    env = _env()
    s = env.from_collection([1], type_info=I)
    m1 = s.map(lambda x: x, I)
    m2 = s.map(lambda x: str(x), S)
    m1.map(lambda x: str(x), S).print("m1a")   # m1 and this map are one operator
    m2.print("m2")
    assert _printed(env) == [["m2", "m1a"]]

    env = _env()
    s = env.from_collection([1], type_info=I)
    m1 = s.map(lambda x: x, I)
    m2 = s.map(lambda x: str(x), S)
    m1a = m1.map(lambda x: str(x), S)
    m1b = m1.map(lambda x: str(x), S)
    m1b.print("m1b")
    m2.print("m2")
    m1a.print("m1a")
    assert _printed(env) == [["m1a", "m1b", "m2"]]


def test_union_inputs_of_one_stage_in_creation_order():
    env = _env()
    s = env.from_collection([1], type_info=I)
    b = s.map(lambda x: "b", S)
    a = s.map(lambda x: "a", S)
    a.union(b).print()
    job = env._compile(env._sinks)
    sink_stage = job.stages[-1].spec
    edges = sorted(sink_stage.inputs, key=lambda i: i.edge_id)
    source_stage = job.stages[0].spec
    exit_source = {e.edge_id: e.source for e in source_stage.exits}
    names = {op.node_id: op for op in source_stage.operators}
    assert [exit_source[i.edge_id] for i in edges] == [b._transformation.id,
                                                       a._transformation.id]
    assert all(exit_source[i.edge_id] in names for i in edges)


def test_union_input_of_an_earlier_stage_comes_first():
    env = _env()
    s = env.from_collection([1], type_info=I)
    late = s.map(lambda x: "late", S).disable_chaining()
    early = s.map(lambda x: "early", S)
    late.union(early).print()
    job = env._compile(env._sinks)
    inputs = sorted(job.stages[-1].spec.inputs, key=lambda i: i.edge_id)
    stage_of_edge = {u.edge_id: u.stage_id for u in job.stages[-1].upstream}
    assert [stage_of_edge[i.edge_id] for i in inputs] == [0, 1]


def test_ordering_takes_no_plan_ids():
    env = _env()
    s = env.from_collection([1], type_info=I)
    s.map(lambda x: x).map(lambda x: x).print()
    before = env.get_execution_plan()
    env._compile(env._sinks)
    env._compile(env._sinks)
    assert env.get_execution_plan() == before


def test_typed_prints_on_one_operator_share_one_exit_and_untyped_ones_do_not():
    env = _env()
    s = env.from_collection([1], type_info=I)
    typed = s.map(lambda x: str(x), S)
    typed.print("x")
    typed.print("y")
    untyped = s.map(lambda x: x)      # each print() adds its own string map
    untyped.print("u")
    untyped.print("v")
    rows = s.map(lambda x: Row(x), Types.ROW([I]))   # so does a Row stream's print()
    rows.print("r1")
    rows.print("r2")
    job = env._compile(env._sinks)
    stage = job.stages[0]
    driver_exits = [e for e in stage.spec.exits if e.to_driver]
    by_edge = {}
    for exit_spec in driver_exits:
        by_edge.setdefault(exit_spec.edge_id, []).append(exit_spec.source)
    assert sorted(len(sources) for sources in by_edge.values()) == [1, 1, 1, 1, 2]
    assert sorted(s.sink.identifier for s in stage.sinks) == ["r1", "r2", "u", "v", "x"]
