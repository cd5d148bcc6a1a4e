"""Where PyFlink passes a record from one Python function to the next as the object the
function returned, and where it serializes it by the declared type between them.

PyFlink fuses consecutive Python operators of one chain into one Python operator (its
Python operator chaining), and then hands the returned object straight on; between operators
it does not fuse, the record is encoded by its declared type and decoded again, so the next
function sees the declared type's Python form: a Row gets its field names, a dict under a
MAP type comes back in Java HashMap order, a tuple under a Row type fails to encode. Seen on
PyFlink 1.20.5 (compat case basic/record_shape_at_operator_boundaries): a function's only
consumer, in its chain, is fused; an operator with a second consumer (another operator, a
print, a map no sink reads) is not, nor one whose side outputs were requested
(get_side_output adds a consumer), nor an operator with two inputs (union, connect), nor
one starting a new chain. The last two already begin a new stage here, where the exit
converts; this module decides for the links inside a stage.
"""
from __future__ import annotations

from typing import Dict

from pyflink_on_spark.graph.transformations import SinkTransformation, Transformation


def serialized_between(source: Transformation, target: Transformation,
                       consumers: Dict[int, int]) -> bool:
    """Whether the main-output record from `source` to `target`, chained in one stage, is
    serialized by `source`'s declared type on the way (PyFlink does not fuse the two).
    `consumers`: node id -> its outgoing edges in the job, every consumer counted. A sink
    renders or converts its input itself."""
    if isinstance(target, SinkTransformation):
        return False
    return consumers.get(source.id, 0) > 1 or source.routes_side_outputs
