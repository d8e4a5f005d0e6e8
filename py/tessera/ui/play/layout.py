"""The play screen's page: the board between the players' panels, and the side
column (status, the relay or link panel, a match's score, the moves, the move
box, the actions), built once when a game opens (``PlayScreen._mount``)."""

from __future__ import annotations

from typing import Any

from ...i18n import t
from ..board.draft import DraftBar
from ..dom import el
from .controls import action_buttons, first_tip, move_form, moves_box
from .panels import PlayerPanel, stats_legend


def build_play(screen: Any) -> Any:
    """The screen's root element; sets the parts ``render`` fills in on ``screen``."""
    session = screen.session
    root = el("div", "play", None, {"data-game": screen.game_id, "data-session": session.session_id,
                                    "data-panels": "beside" if screen.ui.panels_beside_board else "around"})
    flipped_top = 0  # fixed below by render() when the board orientation is known
    screen.top_panel = PlayerPanel(flipped_top, "top")
    screen.bottom_panel = PlayerPanel(1 - flipped_top, "bottom")
    screen.board_host = el("div", "board-host")
    from .branching import BranchControls
    screen.branching = BranchControls(screen)   # "Continue from here"
    # A move put together before it is played (Quadrotone).
    screen.drafts = DraftBar(screen.ui, screen.listeners, screen._draft_game, screen._on_board_move,
                             assist=screen.remote is None and screen.link is None)
    stage = el("div", "play-stage", None, None, [screen.board_host, screen.drafts.node, screen.branching.offer])
    tip = first_tip(screen)
    if tip is not None:
        stage.insertBefore(tip, screen.drafts.node)
    board_col = el("div", "play-board", None, None, [screen.top_panel.node, stage, screen.bottom_panel.node])
    side = el("aside", "play-side", None, {"aria-label": t("play.side_label")})
    screen.status = el("div", "play-status", None, {"role": "status", "id": "play-status"})
    side.appendChild(screen.status)
    if screen.remote is not None:   # the relay link, the invite
        side.appendChild(screen.remote.node)
    if screen.link is not None:   # the link to send a friend
        side.appendChild(screen.link.node)
    from .match import match_box
    match = match_box(screen.session)
    if match is not None:
        side.appendChild(match)
    side.appendChild(moves_box(screen))
    move_box, actions = move_form(screen), action_buttons(screen)
    side.appendChild(move_box)
    side.appendChild(actions)
    if screen.solo:   # one player: no opponent's panel
        screen.top_panel.node.hidden = True
    if screen.remote is not None and screen.remote.watching:   # watching a game: nothing to play
        move_box.hidden = True
    if screen.review:   # a replay: the archive's actions instead of play
        from ..screens.archive import review_bar
        move_box.hidden = actions.hidden = True
        root.classList.add("is-review")
        side.appendChild(review_bar(screen))
    legend = stats_legend(screen.ui, session.game)
    if legend is not None:
        side.appendChild(legend)
    root.appendChild(board_col)
    root.appendChild(side)
    return root
