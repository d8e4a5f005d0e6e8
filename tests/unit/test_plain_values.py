"""core.plain_values: the value classes the page's start-up modules use instead of dataclasses."""

from tessera.core.plain_values import PlainValue
from tessera.ui.saves.saved_games import SavedSummary, SeatSummary
from tessera.ui.saves.versions import SaveStamp


class Pair(PlainValue):
    __slots__ = ("left", "right", "note")
    UNCOMPARED = ("note",)

    def __init__(self, left, right, note=None):
        self.left, self.right, self.note = left, right, note


def test_equality_and_hash_follow_the_compared_slots():
    assert Pair(1, 2, "a") == Pair(1, 2, "b")
    assert hash(Pair(1, 2, "a")) == hash(Pair(1, 2, "b"))
    assert Pair(1, 2) != Pair(2, 1)
    assert len({Pair(1, 2), Pair(1, 2, "x"), Pair(3, 4)}) == 2


def test_another_class_with_the_same_values_is_not_equal():
    class Other(PlainValue):
        __slots__ = ("left", "right", "note")
        UNCOMPARED = ("note",)

        def __init__(self, left, right):
            self.left, self.right, self.note = left, right, None

    assert Pair(1, 2) != Other(1, 2)
    assert Pair(1, 2) != (1, 2)


def test_repr_names_the_compared_slots():
    assert repr(Pair(1, "x", note="hidden")) == "Pair(left=1, right='x')"


def test_the_save_summaries_compare_as_values():
    assert SaveStamp(3, "tab") == SaveStamp(3, "tab") and SaveStamp() == SaveStamp(0, "")
    assert SeatSummary("bot", "hard") == SeatSummary("bot", "hard") != SeatSummary("bot")
    one = SavedSummary("id1", "dots", {"big": "data"}, seats=(SeatSummary("human"),))
    assert one == SavedSummary("id1", "dots", {}, seats=(SeatSummary("human"),))  # the parsed save is left out
    assert "big" not in repr(one)
