"""What each field of a combat or an event is, for the player view (docs/views.md).

Every key that a combat (``GET /v1/combats/{id}``) or an event's ``data`` may hold is named
here with its kind; the player view keeps a field by its kind and the community's
``visibility`` settings, and **drops every key not named here**, so a field added later stays
hidden until someone decides what it is (tests/unit/gateway/test_player_fields.py fails on a
key that the chain tests emit and this table does not name).

A key's kind is the same wherever it appears (but for the few :data:`OVERRIDES` of one event
type); a kind that is dropped takes its whole value with it, so keys that only occur inside a
dropped value (the steps of the damage pipeline) matter only when that value is shown. The
view adds ``vit_pct`` (and ``vit_pct_before`` / ``vit_pct_after``) with a bar, and ``hurt``
(whether a hit did any damage) where the damage itself is hidden.
"""

from __future__ import annotations

from enum import Enum


class Kind(Enum):
    PUBLIC = "public"  # shown; its value is walked with this table
    MAP = "map"  # a map keyed by character ids, skills or timers: its values are walked
    VIT = "vit"  # the numbers of a combatant's condition and of the damage done to it
    BAR = "bar"  # a named step of a condition (cypher's damage track, l5r's wound rank)
    EFFECTS = "effects"  # an effect or a list of them
    EFFECT_DETAIL = "effect_detail"  # an effect's amount and duration
    SECRET = "secret"  # never in the player view: sheets, settings, the tenant


def _named(kind: Kind, names: str) -> dict[str, Kind]:
    return dict.fromkeys(names.split(), kind)


FIELDS: dict[str, Kind] = {
    **_named(
        Kind.PUBLIC,
        """
        abandoned_actions acted action action_id actor after against alentar_bonus asked
        carries from_last_combat thief_rank target_rank
        alentar_received alliance already_down annul_reason answer_to anticipation_by
        applied_by applied_to arma arma_rule at attack attacker attackers attacks
        automatic base before blocks bonus by called_shot cancelled captors category
        cause change character characters code combat_id combo_continues command_type
        commitment complex concentration condition cooldown cost counter covered_by
        covers created_at current dazed dazed_turns deadline deadline_ms defended
        defenders defense defense_roll description details dice dice_commitment disease
        dice_seed die difficulty direct disarmed disconnected distance down downs draws
        due_ms effect_id effects_of effort_levels ended_at ended_at_ms error evaded
        extra_actions extra_attack_tried feint feint_bonus first_draw fled_at_ms
        flight_cooldown_hours forced_raises free free_moved from from_round full_defense
        full_defense_bonus general_action golpe_final granted_by hardness height hit
        hits holder hurt id ignored_targets immune_until index initiative_base
        initiative_roll initiator intellect interference intrusion_used is_state item joined
        joined_at_ms joiner kept key kind knocked_down late left level levels limb max meters might
        lost missing mode moderator mounted move_actions movement_left name natures needed
        needs next_commitment note npc_target_number offensive offensive_1pa_this_round
        offers opening opponents
        option order out owned pa pa_bonus pa_spent pact_offers paralyzed partner
        paused_remaining pending_action pending_attack pending_joins pending_reactions
        percent phase phase_deadline position profile prone purpose raises ran reach
        reflected_by occupied_by disputed from_ground
        reached_zero_vit reaction reactor ready ready_round reason received recovered
        recovered_this_combat recovers_at refused regains_at remaining_ms
        reroll_next_round resets_at resist rest rested_today rests_taken rests_today
        result results roll rolled roller room round rounds rule ruleset seed share side sides
        simple since skill skipped slot_boosts slots slots_left sonic_past_defense
        source spec special speed square stalemate_rounds stall stance stance_declared started_at_ms
        stat state status step stream stunned success swap_offers target target_number
        targets text this_round tide_against tier timed_out tn to total turn turn_order
        turn_seq type uncapped until up_to use used uses_per_round uses_this_week value
        velocidad version vetoable vetoes vetoes_needed via vigor_lost vigor_lost_delta void_max
        void_points void_spent waiting wants_to_stop was_until weapon weapons
        weekly_limit winner zero_pa_actions_this_turn terrain obstacles size
        answer answers answers_left more
        terrain_effects terrain_id keeper squares rounds_left passive hazards nature
        """,
    ),
    **_named(
        Kind.MAP,
        """
        carried conditions cooldowns initiative l5r moved participants positions protected
        refunds rolls speed_spent timers uses uses_this_combat uses_this_round
        weekly_uses
        """,
    ),
    **_named(
        Kind.VIT,
        """
        applied armor cascade damage damage_type defense_effort effort health health_after
        health_before health_max now penalty points pool pools pools_after pools_before
        pools_max raw recovery special_steps steps tn_boost tn_to_be_hit vit vit_after
        vit_before vit_max wasted wound_penalty wound_table wounds wounds_after
        wounds_before wounds_dealt wounds_of_hit
        """,
    ),
    **_named(
        Kind.BAR,
        """
        rank rank_before track track_after track_before track_name vit_pct vit_pct_after
        vit_pct_before wound_rank
        """,
    ),
    **_named(Kind.EFFECTS, "effect effects"),
    **_named(Kind.EFFECT_DETAIL, "actions_left amount stun resistance"),
    **_named(Kind.SECRET, "moderator_key settings sheet sheets stats tenant"),
}

# Where a key means something else in one event type's ``data`` (its top level only).
OVERRIDES: dict[str, dict[str, Kind]] = {
    # l5r: the wound ranks a character goes from and to, and the penalty of the new one
    "wound_rank.changed": {"from": Kind.BAR, "to": Kind.BAR, "penalty": Kind.BAR},
    # l5r: whether he is out or dead is what everyone sees him become
    "combatant.down": {"rank": Kind.PUBLIC},
}
