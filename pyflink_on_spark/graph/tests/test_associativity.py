"""graph/associativity.py: which reduce functions are proved associative over which declared
types. A proof lets every upstream subtask of a BATCH reduce send the fold of its records
(runtime/tests/test_batch_reduce_leading_fold.py checks the results); a wrong True would
change results, so the negative cases matter as much as the positive ones."""
import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import ReduceFunction
from pyflink_on_spark.datastream.functions import wrap_reduce
from pyflink_on_spark.graph.associativity import reduce_is_associative

LONG_PAIR = Types.TUPLE([Types.LONG(), Types.LONG()])
WORD_COUNT = Types.TUPLE([Types.STRING(), Types.INT()])
LONG_TRIPLE = Types.TUPLE([Types.LONG(), Types.LONG(), Types.LONG()])
USER_AMOUNT = Types.ROW_NAMED(["user", "amount"], [Types.STRING(), Types.LONG()])


def _proved(function, record_type) -> bool:
    return reduce_is_associative(wrap_reduce(function), record_type)


def add_counts(a, b):
    return (a[0], a[1] + b[1])


@pytest.mark.parametrize("function, record_type", [
    (add_counts, WORD_COUNT),
    (lambda a, b: (a[0], a[1] + b[1]), LONG_PAIR),
    (lambda a, b: (a[0], b[1] + a[1]), LONG_PAIR),
    (lambda a, b: (a[0], max(a[1], b[1])), LONG_PAIR),
    (lambda a, b: (b[0], min(b[1], a[1])), LONG_PAIR),
    (lambda a, b: (a[0], a[1] * b[1], a[2] | b[2]), LONG_TRIPLE),
    (lambda a, b: (a[0], a[1] & b[1], a[2] ^ b[2]), LONG_TRIPLE),
    (lambda a, b: (a[0], b[1], a[2] + b[2]), LONG_TRIPLE),
    # concatenation, either way round: associative, not commutative
    (lambda a, b: (a[0], a[1] + b[1]), Types.TUPLE([Types.LONG(), Types.STRING()])),
    (lambda a, b: (a[0], b[1] + a[1]), Types.TUPLE([Types.LONG(), Types.STRING()])),
    (lambda a, b: (a[0], max(a[1], b[1])), Types.TUPLE([Types.LONG(), Types.STRING()])),
    # a field taken whole may be of any type
    (lambda a, b: (a[0], b[1]), Types.TUPLE([Types.LONG(), Types.DOUBLE()])),
    # scalar records
    (lambda a, b: a + b, Types.LONG()),
    (lambda a, b: max(a, b), Types.INT()),
    # keep the first or the last record
    (lambda a, b: b, LONG_PAIR),
    (lambda a, b: a, Types.DOUBLE()),
    # the first or the last extreme record by a field of ints or strs
    (lambda a, b: a if a[1] >= b[1] else b, LONG_PAIR),
    (lambda a, b: a if a[1] < b[1] else b, LONG_PAIR),
    (lambda a, b: b if a[1] > b[1] else a, Types.TUPLE([Types.LONG(), Types.STRING()])),
    (lambda a, b: b if b[0] <= a[0] else a, Types.TUPLE([Types.STRING(), Types.DOUBLE()])),
    (lambda a, b: a if a.amount >= b.amount else b, USER_AMOUNT),
    (lambda a, b: a if a > b else b, Types.LONG()),
    # PyFlink's Row: by name, when the result has the declared names; else by position
    (lambda a, b: Row(user=a.user, amount=a.amount + b.amount), USER_AMOUNT),
    (lambda a, b: Row(user=b.user, amount=max(b.amount, a[1])), USER_AMOUNT),
    (lambda a, b: Row(a[0], a[1] + b[1]), Types.ROW([Types.STRING(), Types.LONG()])),
    (lambda a, b: (a[0], a[1] + b[1]), USER_AMOUNT),
])
def test_proved(function, record_type):
    assert _proved(function, record_type)


def _shadowed_max():
    scope = {"max": lambda x, y: x - y}
    exec("def reduce(a, b):\n    return (a[0], max(a[1], b[1]))\n", scope)
    return scope["reduce"]


def _builtins_max_replaced():
    scope = {"__builtins__": {"max": lambda x, y: x - y}}
    exec("def reduce(a, b):\n    return (a[0], max(a[1], b[1]))\n", scope)
    return scope["reduce"]


def _max_imported_as_itself():
    scope = {}
    exec("from builtins import max\ndef reduce(a, b):\n    return (a[0], max(a[1], b[1]))\n",
         scope)
    return scope["reduce"]


def _with_closure():
    factor = 2

    def reduce(a, b):
        return (a[0], a[1] * factor)
    return reduce


def _other_row():
    class Row:   # not PyFlink's
        def __init__(self, **fields):
            self.fields = fields
    scope = {"Row": Row}
    exec("def reduce(a, b):\n    return Row(user=a.user, amount=a.amount + b.amount)\n",
         scope)
    return scope["reduce"]


def _with_branch(a, b):
    if a[1] >= b[1]:   # a max_by
        return a
    return b


def _with_call(a, b):
    print(a)
    return (a[0], a[1] + b[1])


def _with_default(a, b=(0, 0)):
    return (a[0], a[1] + b[1])


def _with_try(a, b):
    # the handler makes it keep the last record where a field is None: not associative
    try:
        return (a[0], a[1] + b[1])
    except TypeError:
        return b


def _with_star(*pair):
    return pair[1]


@pytest.mark.parametrize("function, record_type", [
    (lambda a, b: (a[0], a[1] * 3 - b[1]), LONG_PAIR),            # not associative
    (lambda a, b: (a[0], a[1] - b[1]), LONG_PAIR),
    (lambda a, b: (a[1], a[0]), LONG_PAIR),                       # fields swap places
    (lambda a, b: (a[0], a[1] + b[0]), LONG_PAIR),                # another field's value
    (lambda a, b: (a[0], a[1] + a[1]), LONG_PAIR),                # both from one side
    (lambda a, b: (a[0], max(a[1], a[1])), LONG_PAIR),
    (lambda a, b: (a[0], a[1] + b[1]), Types.TUPLE([Types.LONG(), Types.DOUBLE()])),  # floats
    (lambda a, b: (a[0], min(a[1], b[1])), Types.TUPLE([Types.LONG(), Types.FLOAT()])),
    (lambda a, b: (a[0], a[1] + b[1]), Types.TUPLE([Types.LONG(), Types.BIG_INT()])),
    (lambda a, b: (a[0], a[1] * b[1]), Types.TUPLE([Types.LONG(), Types.STRING()])),
    (lambda a, b: (a[0], a[1] + b[1]), None),                     # no declared type
    # a record that may be None: keep-the-last, a str's concatenation and min
    (lambda a, b: b, None),
    (lambda a, b: a, Types.PICKLED_BYTE_ARRAY()),
    (lambda a, b: b + a, Types.STRING()),
    (lambda a, b: a + b, Types.STRING()),
    (lambda a, b: max(a, b), Types.STRING()),
    (lambda a, b: (a[0], a[1] + b[1]), Types.PICKLED_BYTE_ARRAY()),
    (lambda a, b: (a[0], a[1] + b[1]), LONG_TRIPLE),              # a field missing
    (lambda a, b: (a[0], a[1] + b[1], b[2], a[3]), LONG_TRIPLE),  # a field too many
    (lambda a, b: a + b, Types.DOUBLE()),
    (lambda a, b: a - b, Types.LONG()),
    (lambda a, b: a + b, LONG_PAIR),                              # a tuple's concatenation
    (lambda a, b: (a[0], a[-1] + b[-1]), LONG_PAIR),
    (lambda a, b: (a[0], a.f1 + b.f1), LONG_PAIR),
    (lambda a, b: (a[0], abs(a[1] + b[1])), LONG_PAIR),
    (lambda a, b: (a[0], max(a[1], b[1], 0)), LONG_PAIR),
    (lambda a, b: [a[0], a[1] + b[1]], LONG_PAIR),
    (_shadowed_max(), LONG_PAIR),
    (_builtins_max_replaced(), LONG_PAIR),
    (_with_closure(), LONG_PAIR),
    (_with_branch, Types.TUPLE([Types.LONG(), Types.DOUBLE()])),   # NaN: no total order
    (lambda a, b: a if a[1] >= b[2] else b, LONG_TRIPLE),
    (lambda a, b: a if a[1] >= a[1] else b, LONG_PAIR),
    (lambda a, b: a if a[1] >= b[1] else a, LONG_PAIR),
    (lambda a, b: a if a[1] == b[1] else b, LONG_PAIR),
    (lambda a, b: a if a[1] >= b[1] else b, None),
    (lambda a, b: (a[0], a[1]) if a[1] >= b[1] else b, LONG_PAIR),
    (lambda a, b: a if a[1] >= b[1] else (b if b[0] > a[0] else a), LONG_PAIR),
    (lambda a, b: a if a.missing >= b.missing else b, USER_AMOUNT),
    (lambda a, b: Row(u=a.user, amount=a.amount + b.amount), USER_AMOUNT),
    (lambda a, b: Row(amount=a.amount + b.amount, user=a.user), USER_AMOUNT),
    (lambda a, b: Row(a.user, a.amount + b.amount), USER_AMOUNT),
    (lambda a, b: (a.user, a.amount + b.amount), USER_AMOUNT),
    (lambda a, b: Row(user=a.user, amount=a.amount + b.amount),
     Types.ROW_NAMED(["user", "amount"], [Types.STRING(), Types.DOUBLE()])),
    (lambda a, b: Row(user=a.user), USER_AMOUNT),
    (_other_row(), USER_AMOUNT),
    (_with_call, LONG_PAIR),
    (_with_default, LONG_PAIR),
    (_with_star, LONG_PAIR),
    (_with_try, LONG_PAIR),
])
def test_not_proved(function, record_type):
    assert not _proved(function, record_type)


def test_max_imported_from_builtins_is_the_builtin():
    assert _proved(_max_imported_as_itself(), LONG_PAIR)


def test_an_if_and_returns_is_read_as_a_ternary():
    assert _proved(_with_branch, LONG_PAIR)


def test_a_subclass_s_reduce_is_read_without_self():
    class Sum(ReduceFunction):
        def reduce(self, value1, value2):
            return (value1[0], value1[1] + value2[1])

    class Scaled(ReduceFunction):
        def __init__(self):
            self.factor = 2

        def reduce(self, value1, value2):
            return (value1[0], value1[1] + value2[1] * self.factor)
    assert reduce_is_associative(Sum(), WORD_COUNT)
    assert not reduce_is_associative(Scaled(), WORD_COUNT)


def test_a_callable_object_is_not_read():
    class Adder:
        def __call__(self, a, b):
            return (a[0], a[1] + b[1])
    assert not reduce_is_associative(wrap_reduce(Adder()), LONG_PAIR)
