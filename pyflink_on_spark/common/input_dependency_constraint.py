"""pyflink.common.input_dependency_constraint mirror."""
from enum import Enum

from pyflink_on_spark.common.utils import no_jvm

__all__ = ['InputDependencyConstraint']


class InputDependencyConstraint(Enum):
    """When a task may be scheduled given its inputs (deprecated in Flink; recorded only).

    ANY: as soon as any input is consumable. ALL: once all inputs are consumable.
    """
    ANY = 0
    ALL = 1

    @staticmethod
    def _from_j_input_dependency_constraint(j_input_dependency_constraint) \
            -> 'InputDependencyConstraint':
        no_jvm("InputDependencyConstraint._from_j_input_dependency_constraint()")

    def _to_j_input_dependency_constraint(self):
        no_jvm("InputDependencyConstraint._to_j_input_dependency_constraint()")
