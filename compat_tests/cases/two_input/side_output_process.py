"""Side outputs of a ProcessFunction: one tag (test_process_side_output), a process chained
after a map (test_side_output_chained_with_upstream_operator), two tags of different types
(test_process_multiple_side_output). Main and side outputs are collected in one job (PyFlink
routes `yield tag, value` to side outputs only when the job consumes one: collecting the main
stream alone would send the tuples to the STRING main output and fail)."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import ProcessFunction

side = OutputTag("side", Types.INT())
side_str = OutputTag("side2", Types.STRING())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        yield value[0]
        yield side, value[1]
        yield side_str, value[0] + str(value[1])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
row = Types.ROW([Types.STRING(), Types.INT()])
ds = env.from_collection([('a', 0), ('b', 1), ('c', 2)], type_info=row)



def tagged(label, stream):
    return stream.map(lambda v: "%s %s" % (label, v), output_type=Types.STRING())


main = ds.process(Split(), output_type=Types.STRING())
print(sorted(tagged("main", main).union(tagged("side", main.get_side_output(side)),
                                        tagged("side2", main.get_side_output(side_str)))
             .execute_and_collect()))

chained = ds.map(lambda e: (e[0], e[1] + 1)).process(Split(), output_type=Types.STRING())
print(sorted(tagged("main", chained).union(tagged("side", chained.get_side_output(side)))
             .execute_and_collect()))
