"""Landing sums for the Dots bots: what landing now would give, and what
one more dot would ground.

A game of Dots between bots ends by landing (8.4 as ruled): the declarer's
dots that no orthogonal path of own live dots and own regions joins to the
edge go to the opponent, and enemy dots inside the declarer's ungrounded
regions stop scoring for it.  So a player ahead on captures still cannot
land while more of its dots are ungrounded than its lead, and one dot that
joins a big ungrounded group to the edge can turn a lost landing into a won
one.  The capture reading does not see this: a match record showed the
master leading 9-0 for 140 plies with 80 dots ungrounded, while one edge
dot grounded 51 of the opponent's dots, who landed and won 11-9.

``Grounding`` reads one player's position once (a flood from the edge, as
``Field.grounded``) and then answers, per free point, how many dots a dot
there would ground, so a bot can see a landing one move ahead for either
side.  Each dot in an ungrounded cell costs the player one point of lead
on landing (its own dot goes to the opponent; an enemy dot in its region
stops scoring), so ``margin`` is ``lead - cost`` exactly as
``Field.scores_after_landing`` counts it, and landing wins when it is above
zero.
"""

from __future__ import annotations

from collections import deque

from .field import Field


class Grounding:
    """One player's landing position on a field, read once (the field is
    not changed).

    ``margin``: the player's lead after landing now (wins when > 0);
    ``points``: ``(grounded dots, point)`` for each free point where a dot
    of the player would join ungrounded dots to the ground, most first.
    """

    __slots__ = ("player", "margin", "cost", "points", "frontier", "_field", "_seen",
                 "_component", "_costs")

    def __init__(self, field: Field, player: int) -> None:
        self.player = player
        seen = field.grounded(player)
        live, owner, dot = field.live[player], field.owner, field.dot
        code = player + 1
        stride, width, height = field.stride, field.width, field.height
        # Ungrounded path cells (own live dots, own region cells), grouped
        # into orthogonal components, each with the dots it holds.
        component = [0] * field.cell_count
        costs = [0]
        frontier: dict[int, None] = {}
        for start in field.cells:
            if seen[start] or component[start] or not (live[start] or owner[start] == code):
                continue
            label = len(costs)
            component[start] = label
            stack = [start]
            dots = 0
            while stack:
                c = stack.pop()
                if dot[c]:
                    dots += 1
                for n in (c + 1, c - 1, c + stride, c - stride):
                    if component[n] or seen[n]:
                        continue
                    if live[n] or owner[n] == code:
                        component[n] = label
                        stack.append(n)
                    elif not dot[n] and not owner[n]:
                        frontier[n] = None
            costs.append(dots)
        score = field.score
        self.cost = sum(costs)
        self.margin = score[player] - score[1 - player] - self.cost
        points = []
        for f in frontier:
            x, y = f % stride, f // stride
            grounds = x == 1 or x == width or y == 1 or y == height
            labels = set()
            for n in (f + 1, f - 1, f + stride, f - stride):
                if seen[n]:
                    grounds = True
                elif component[n]:
                    labels.add(component[n])
            if grounds and labels:
                points.append((sum(costs[label] for label in labels), f))
        points.sort(key=lambda item: (-item[0], item[1]))
        self.points = points
        self.frontier = list(frontier)
        """Free points next to ungrounded dots: where a grounding path starts."""
        self._field, self._seen, self._component, self._costs = field, seen, component, costs

    def distances(self) -> tuple[list[int], list[int]]:
        """How far each ungrounded group is from the ground, and where to go.

        Returns ``(steps, firsts)``: per group (its label, from 1), the
        fewest dots that would join it to the ground (0-1 breadth-first
        search from the ground through free points, which cost a dot, and
        own ungrounded cells, which cost none; enemy dots and regions
        block), and per group a free point next to it where such a path
        starts (-1: none, the group is walled in).  It reads the field as
        it is now, so it is asked before the field changes.
        """
        field, seen, component = self._field, self._seen, self._component
        live, owner, dot = field.live[self.player], field.owner, field.dot
        code = self.player + 1
        stride, width, height = field.stride, field.width, field.height
        far = 1 << 30
        distance = [far] * field.cell_count
        queue: deque[int] = deque()
        for c in field.cells:
            if seen[c]:
                distance[c] = 0
                queue.appendleft(c)
            elif not dot[c] and not owner[c]:
                x, y = c % stride, c // stride
                if x == 1 or x == width or y == 1 or y == height:
                    distance[c] = 1
                    queue.append(c)
        while queue:
            c = queue.popleft()
            here = distance[c]
            for n in (c + 1, c - 1, c + stride, c - stride):
                if component[n] or live[n] or owner[n] == code:
                    step = 0
                elif not dot[n] and not owner[n]:
                    step = 1
                else:
                    continue
                if here + step < distance[n]:
                    distance[n] = here + step
                    if step:
                        queue.append(n)
                    else:
                        queue.appendleft(n)
        groups = len(self._costs)
        steps, firsts = [far] * groups, [-1] * groups
        for f in self.frontier:
            d = distance[f]
            for n in (f + 1, f - 1, f + stride, f - stride):
                label = component[n]
                if label and d < steps[label]:
                    steps[label], firsts[label] = d, f
        return steps, firsts

    def expected_cost(self, steps: list[int]) -> float:
        """The landing cost with each group weighed by how far it is from
        the ground: a group one dot away counts half, two dots away two
        thirds, and so on; a walled-in group counts whole."""
        total = 0.0
        for label in range(1, len(self._costs)):
            total += self._costs[label] * steps[label] / (steps[label] + 1)
        return total

    def group_of(self, cell: int) -> int:
        """The label of the ungrounded group holding ``cell`` (0: none)."""
        return self._component[cell]

    def group_dots(self) -> list[int]:
        """Dots per ungrounded group (by label; index 0 is unused)."""
        return self._costs

    def winning_points(self) -> list[int]:
        """Points after which landing would win (the margin then above zero)."""
        return [f for gain, f in self.points if self.margin + gain > 0]
