"""The home screen: the five games, games in progress, language switch.

It reads saved games only as summaries (no engine is imported), so the
first screen appears as soon as Python is up.
"""

from __future__ import annotations

from typing import Any

from ... import i18n
from ...core import registry
from ...i18n import has, t
from ..saves import storage
from ..dom import Listeners, button, el
from ..saves.saved_games import SavedSummary, SeatSummary

class HomeScreen:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.listeners = Listeners()
        self.root: Any = None

    def mount(self, container: Any) -> None:
        summaries, problems = storage.list_sessions()
        self.app.report_problems(problems)
        summaries = storage.prune_archive(summaries)
        self.root = el("div", "home")
        self.root.appendChild(self._intro())
        playable = set(registry.available_ids())
        unfinished = [s for s in summaries if not s.over and s.game in playable]
        if unfinished:
            self.root.appendChild(self._in_progress(unfinished))
        finished = sum(1 for s in summaries if s.over and s.game in playable)
        if finished:
            self.root.appendChild(self._archive_link(finished))
        self.root.appendChild(self._games())
        self.root.appendChild(self._footer())
        container.appendChild(self.root)

    def unmount(self) -> None:
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    # ----- parts ---------------------------------------------------------------------
    def _intro(self) -> Any:
        return el("section", "home-intro", None, {"aria-labelledby": "home-title"}, [
            el("h1", "home-title", t("home.title"), {"id": "home-title"}),
            el("p", "home-lead", t("home.lead")),
        ])

    def _in_progress(self, summaries: list[SavedSummary]) -> Any:
        section = el("section", "home-section", None, {"aria-labelledby": "resume-title"})
        waiting = sum(1 for summary in summaries if summary.local_turn)
        title = el("h2", "section-title", t("home.in_progress"), {"id": "resume-title"})
        if waiting:   # games whose move is yours (a friend's link opened, a bot answered)
            title.appendChild(el("span", "badge badge-turn", t("home.waiting_for_you", count=waiting),
                                 {"data-badge": "your-turn"}))
        section.appendChild(title)
        items = el("ul", "resume-list")
        for summary in summaries[:8]:
            items.appendChild(self._resume_item(summary))
        section.appendChild(items)
        return section

    def _resume_item(self, summary: SavedSummary) -> Any:
        """One saved game's card; every field comes checked from ``saved_games``."""
        move_number = summary.ply // 2 + 1
        your_turn = summary.local_turn
        href = f"#/play/{summary.game}/{summary.session_id}"
        link = el("a", "resume-card", None, {"href": href})
        link.appendChild(el("span", "resume-game", t(f"game.{summary.game}.title")))
        link.appendChild(el("span", "resume-opponent", describe_opponent(summary.seats)))
        status = ""
        if your_turn:
            status = t("home.your_turn")
        elif summary.to_move is not None and summary.to_move < len(summary.seats) \
                and summary.seats[summary.to_move].kind == "link":
            status = t("link.waiting_home")
        elif summary.to_move is not None and has(f"turn.{summary.side_names[summary.to_move]}"):
            status = t(f"turn.{summary.side_names[summary.to_move]}")
        text = t("home.status", status=status, number=move_number) if status else t("home.move", number=move_number)
        link.appendChild(el("span", "resume-status" + (" is-yours" if your_turn else ""), text))
        link.appendChild(el("span", "resume-go", t("home.resume"), {"aria-hidden": "true"}))
        item = el("li", "resume-item")
        item.appendChild(link)
        name = t("home.delete_game", game=t(f"game.{summary.game}.title"),
                 opponent=describe_opponent(summary.seats), status=text)
        item.appendChild(button(name, lambda event, s=summary: self._delete(s, item),
                                self.listeners, "btn-icon resume-delete", icon="close"))
        return item

    def _delete(self, summary: SavedSummary, item: Any) -> None:
        from ..dialogs import confirm
        confirm(t("home.delete_confirm"), t("home.delete"),
                lambda: (storage.delete_session(summary.session_id), self.app.show_route(force=True)),
                danger=True)

    def _archive_link(self, count: int) -> Any:
        """Finished games stay in the archive: a line leading there."""
        return el("p", "home-archive", None, None, [
            el("a", "home-archive-link", t("home.archive", count=count), {"href": "#/archive",
                                                                         "data-action": "archive"})])

    def _games(self) -> Any:
        section = el("section", "home-section", None, {"aria-labelledby": "games-title"})
        section.appendChild(el("h2", "section-title", t("home.games"), {"id": "games-title"}))
        grid = el("ul", "game-grid")
        for entry in registry.GAMES:
            grid.appendChild(self._game_card(entry))
        section.appendChild(grid)
        return section

    def _game_card(self, entry: registry.GameEntry) -> Any:
        game_id = entry.game_id
        card = el("li", "game-card" + ("" if entry.available else " is-soon"),
                  None, {"data-game": game_id})
        head = el("div", "game-card-head", None, None, [
            el("span", f"game-icon game-icon-{game_id}", entry.icon, {"aria-hidden": "true"}),
            el("h3", "game-name", t(f"game.{game_id}.title")),
        ])
        card.appendChild(head)
        players = t("home.players_one") if entry.num_players == 1 else t("home.players_two")
        card.appendChild(el("p", "game-meta", players))
        card.appendChild(el("p", "game-blurb", t(f"game.{game_id}.blurb")))
        actions = el("div", "game-actions")
        if entry.available:
            # Names that say which game ("Play Quadrature"): a screen reader's
            # list of buttons would otherwise hold five alike.
            title = t(f"game.{game_id}.title")
            actions.appendChild(button(t("home.play"), lambda event: self._new_game(game_id),
                                       self.listeners, "btn btn-primary",
                                       {"data-action": "new-game", "data-game": game_id,
                                        "aria-label": t("home.play_game", game=title)}))
            actions.appendChild(el("a", "btn btn-ghost", t("home.rules"),
                                   {"href": f"#/rules/{game_id}", "aria-label": t("home.rules_of", game=title)}))
            if entry.num_players == 1:   # one-player games keep high scores
                actions.appendChild(button(t("home.high_scores"), lambda event: self._high_scores(game_id),
                                           self.listeners, "btn btn-ghost",
                                           {"data-action": "high-scores", "data-game": game_id,
                                            "aria-label": t("home.high_scores_of", game=title)}))
        else:
            actions.appendChild(el("span", "badge", t("home.coming_soon")))
        card.appendChild(actions)
        return card

    def _high_scores(self, game_id: str) -> None:
        from ..saves.high_scores import high_scores_dialog
        high_scores_dialog(self.app, game_id)

    def _new_game(self, game_id: str) -> None:
        from ..dialogs import new_game_dialog
        new_game_dialog(self.app, game_id)

    def _footer(self) -> Any:
        footer = el("section", "home-footer")
        group = el("div", "lang-switch", None, {"role": "group", "aria-label": t("lang.label")})
        group.appendChild(el("span", "lang-label", t("lang.label"), {"aria-hidden": "true"}))
        for lang in i18n.LANGUAGES:
            current = lang == i18n.language()
            group.appendChild(button(t(f"lang.{lang}"), lambda event, lang=lang: self.app.set_language(lang),
                                     self.listeners, "lang-btn" + (" is-current" if current else ""),
                                     {"aria-pressed": "true" if current else "false", "lang": lang,
                                      "data-lang": lang}))
        footer.appendChild(group)
        footer.appendChild(el("p", "home-note", t("home.offline_note")))
        return footer


def describe_opponent(seats: tuple[SeatSummary, ...]) -> str:
    """"Bot · Medium" or "Two players on this device", from saved seats."""
    if len(seats) == 1 and seats[0].kind == "human":
        return t("opponent.solo")
    for seat in seats:
        if seat.kind == "bot" and seat.level and has(f"bot.level.{seat.level}"):
            return t("opponent.bot", level=t(f"bot.level.{seat.level}"))
    if seats and all(seat.kind == "human" for seat in seats):
        return t("opponent.hot_seat")
    if any(seat.kind == "link" for seat in seats):
        return t("opponent.link")
    return t("opponent.remote")
