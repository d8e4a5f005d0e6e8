"""The zoom and pan arithmetic shared by the wheel, buttons and pinch."""

from tessera.core.view import Viewport


def test_zoom_keeps_the_anchor_point_still() -> None:
    """The drawing point under the anchor stays under it after zooming."""
    view = Viewport()
    anchor_x, anchor_y = 300.0, 100.0
    before = ((anchor_x - view.pan_x) / view.zoom, (anchor_y - view.pan_y) / view.zoom)
    view.zoom_about(2.0, anchor_x, anchor_y, max_zoom=4.0, width=400.0, height=400.0)
    after = ((anchor_x - view.pan_x) / view.zoom, (anchor_y - view.pan_y) / view.zoom)
    assert view.zoom == 2.0
    assert before == after


def test_zoom_is_clamped_and_the_board_always_fills_the_canvas() -> None:
    """Zoom stays within 1..max, and panning never shows space beside the board."""
    view = Viewport()
    view.zoom_about(9.0, 0.0, 0.0, max_zoom=3.0, width=400.0, height=300.0)
    assert view.zoom == 3.0
    view.pan_by(-5000.0, 5000.0, 400.0, 300.0)
    assert (view.pan_x, view.pan_y) == (400.0 - 1200.0, 0.0)
    view.zoom_about(0.1, 200.0, 150.0, max_zoom=3.0, width=400.0, height=300.0)
    assert (view.zoom, view.pan_x, view.pan_y) == (1.0, 0.0, 0.0)


def test_reset() -> None:
    """Fit shows the whole board again."""
    view = Viewport(2.0, -10.0, -20.0)
    view.reset()
    assert (view.zoom, view.pan_x, view.pan_y) == (1.0, 0.0, 0.0)
