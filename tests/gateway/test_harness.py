"""The ground the gateway tests stand on: the services the fixtures start are what
the other tests assume (seeded meetings, a real transcribed meeting, Pro)."""

from conftest import REAL_TITLE


def test_free_service_has_seeded_and_real_meetings(free_service):
    listing = free_service.meetings(limit=200)
    assert listing["total"] >= 14, f"expected 12 + 1 long seeded meetings + 1 import: {listing['total']}"
    real = free_service.meeting(free_service.real_meeting_id)
    assert real["title"] == REAL_TITLE and real["status"] == "ready"
    words = free_service.transcript(free_service.real_meeting_id, "txt").lower()
    assert "budget" in words, f"the speech was not transcribed as expected: {words!r}"
    assert free_service.latest_meeting_id() == free_service.real_meeting_id, "the import should be the newest"
    real_items = real["action_items"]
    assert len(real_items) >= 2 and real_items[0]["owner"] == "Alice", (
        f"the built-in notes engine should find Alice's and Bob's items in the speech: {real_items}")
    assert real_items[-1]["done"] and not real_items[0]["done"], "the fixture marks the last item done"
    owners = [item["owner"] for m in listing["meetings"][:5] for item in free_service.meeting(m["id"])["action_items"]]
    assert any(owners), "seeded meetings should have action items with owners"


def test_pro_service_is_pro_and_idle(pro_service):
    assert pro_service.pro
    assert not pro_service.recording_active()
    assert pro_service.policy_values() == {}
