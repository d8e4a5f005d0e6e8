"""Value classes for modules the page imports at start-up.

``dataclasses`` writes each class's ``__init__``, ``__eq__`` and ``__repr__``
as source and compiles it when the class is made: about 8 ms a class in the
browser, paid on every page load by the ui modules that are not in the
memory snapshot.  A class here writes its ``__init__`` by hand and gets
equality, hash and repr from its ``__slots__`` with nothing compiled.
"""

from __future__ import annotations

from typing import Any


class PlainValue:
    """Equality, hash and repr from ``__slots__`` (the subclass's, in order).

    ``UNCOMPARED`` names slots left out of equality and hash (a parsed save
    a summary carries, say).  Instances are not frozen: treat them as values.
    """

    __slots__ = ()
    UNCOMPARED: tuple[str, ...] = ()

    def _compared(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__ if name not in self.UNCOMPARED)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__
                          if name not in self.UNCOMPARED)
        return f"{type(self).__name__}({shown})"
