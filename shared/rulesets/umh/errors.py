"""Error codes only the umh ruleset raises: code -> (HTTP status, English, Spanish).

Merged into :data:`shared.errors.CATALOGUE` through :mod:`shared.rulesets.registry`; a code more
than one ruleset raises lives in :mod:`shared.errors` instead.
"""

from __future__ import annotations

from typing import Final

CODES: Final[dict[str, tuple[int, str, str]]] = {
    "insufficient_pa": (422, "Not enough action points.", "No tienes PA suficientes."),
    "cannot_steal": (
        422,
        "That skill cannot steal items.",
        "Esa habilidad no permite robar elementos.",
    ),
    "unknown_weapon": (
        422,
        "The character has no such weapon (or names it twice).",
        "El personaje no tiene esa arma (o la nombra dos veces).",
    ),
    "no_pending_reaction": (
        422,
        "There is no pending reaction for that character and action.",
        "No hay ninguna reacción pendiente para ese personaje y acción.",
    ),
    "fainted_no_climb": (
        422,
        "After a faint, no rising to alzada or voladora until one own turn has passed.",
        "Tras un desmayo no puede alcanzar posición alzada ni voladora hasta pasado un turno "
        "propio.",
    ),
    "flee_on_cooldown": (422, "Fleeing is on cooldown.", "Huir está en tiempo de reutilización."),
    "reaction_pending": (
        422,
        "A defense window is open: the turn waits for the defense.",
        "Hay una defensa pendiente: el turno espera a que se resuelva.",
    ),
    "not_a_defense": (422, "That skill is not defensive.", "Esa habilidad no es defensiva."),
    "not_offensive": (
        422,
        "Only an offensive skill can open a combat.",
        "Solo una habilidad ofensiva puede iniciar un combate.",
    ),
    "requirement_already_earned": (
        422,
        "That combat requirement was already earned in this combat.",
        "Ese requisito de combate ya se obtuvo en este combate.",
    ),
    "requirement_from_lower_rank": (
        422,
        "No requirements from characters of a lower rank.",
        "No se obtienen requisitos de personajes de rango inferior.",
    ),
    "requirement_same_alliance": (
        422,
        "No requirements from characters of the same group or alliance.",
        "No se obtienen requisitos de personajes de la misma agrupación o alianza.",
    ),
    "requirement_not_applicable": (
        422,
        "That skill does not earn a requirement in this combat.",
        "Esa habilidad no otorga un requisito en este combate.",
    ),
    "requirement_not_available": (
        422,
        "This combat grants no requirements.",
        "Este combate no otorga requisitos.",
    ),
    "invalid_adjustment": (
        422,
        "A moderator may lift or shorten a state, never lengthen it.",
        "Un moderador puede levantar o acortar un estado, nunca alargarlo.",
    ),
    "ability_already_used_this_round": (
        422,
        "That skill was already used this round.",
        "Esa habilidad ya se usó en esta ronda.",
    ),
    "ability_disputed": (
        422,
        "That skill is disputed until a moderator rules on it.",
        "Esa habilidad está en disputa hasta que un moderador la resuelva.",
    ),
    "already_reacted": (
        422,
        "You already reacted to that action.",
        "Ya reaccionaste a esa acción.",
    ),
    "anticipation_chain": (
        422,
        "An anticipation cannot be answered with another anticipation.",
        "Una anticipación no puede responderse con otra anticipación.",
    ),
    "bad_declaration_format": (
        422,
        "The skill declaration is incomplete.",
        "La declaración de la habilidad está incompleta.",
    ),
    "blind_cannot_evade": (
        422,
        "A blind character cannot evade that.",
        "Un personaje ciego no puede evadir eso.",
    ),
    "cannot_annul": (422, "That cannot be annulled.", "Eso no se puede anular."),
    "cannot_anticipate_supplementary": (
        422,
        "This supplementary skill has no physical preparation and the anticipation does not"
        " read minds nor foresee.",
        "Esta habilidad suplementaria no tiene preparación física y la anticipación no lee la"
        " mente ni tiene precognición.",
    ),
    "cannot_anticipate_defense": (
        422,
        "Defensive skills cannot be anticipated.",
        "Las habilidades defensivas no se pueden anticipar.",
    ),
    "cannot_defend_indirect": (
        422,
        "Indirect damage already received cannot be defended.",
        "El daño indirecto ya recibido no se puede defender.",
    ),
    "cannot_rejoin_fled_combat": (
        422,
        "Nobody may rejoin a combat they fled.",
        "Nadie puede volver a un combate del que huyó.",
    ),
    "challenge_out_of_range": (
        422,
        "A challenge reaches at most 5 squares.",
        "Un reto alcanza como máximo 5 casillas.",
    ),
    "cone_diagonal": (
        422,
        "Cones cannot be used diagonally.",
        "Los conos no se pueden usar en diagonal.",
    ),
    "counter_needs_direct_damage": (
        422,
        "A counterattack only answers direct damage.",
        "Un contraataque solo responde a daño directo.",
    ),
    "defense_not_applicable": (
        422,
        "That defense does not apply to this attack.",
        "Esa defensa no se aplica a este ataque.",
    ),
    "defense_type": (
        422,
        "That type of defense is not allowed here.",
        "Ese tipo de defensa no está permitido aquí.",
    ),
    "deny_not_allowed": (
        422,
        "Only an IRRUMPIR entry can be denied.",
        "Solo se puede denegar una entrada con IRRUMPIR.",
    ),
    "enamored": (
        422,
        "An enamored character cannot attack the one he loves.",
        "Un personaje enamorado no puede atacar a quien ama.",
    ),
    "evasion_direction": (
        422,
        "Cannot evade in that direction.",
        "No se puede evadir en esa dirección.",
    ),
    "evasion_insufficient": (
        422,
        "That evasion does not leave the area.",
        "Esa evasión no sale del área.",
    ),
    "evasion_overspend": (
        422,
        "An evasion may not spend more speed than needed.",
        "Una evasión no puede gastar más velocidad de la necesaria.",
    ),
    "firearm_block": (
        422,
        "Firearms cannot block or be internal defenses.",
        "Las armas de fuego no pueden bloquear ni ser defensas internas.",
    ),
    "immobilized": (422, "The character is immobilized.", "El personaje está inmovilizado."),
    "immunity": (422, "The character is immune.", "El personaje es inmune."),
    "imprison_not_eligible": (
        422,
        "That character cannot be imprisoned.",
        "Ese personaje no puede ser encarcelado.",
    ),
    "initiator_incomplete": (
        422,
        "The initiating skill is incomplete.",
        "La habilidad iniciadora está incompleta.",
    ),
    "insufficient_speed": (422, "Not enough speed left.", "No queda velocidad suficiente."),
    "interference_action_not_allowed": (
        422,
        "That action is not allowed in this interference turn.",
        "Esa acción no está permitida en este turno de interferencia.",
    ),
    "interference_limit": (
        422,
        "A free interference turn allows one skill.",
        "Un turno de interferencia libre permite una habilidad.",
    ),
    "irrumpir_locked": (
        422,
        "IRRUMPIR is locked after fleeing.",
        "IRRUMPIR está bloqueado tras huir.",
    ),
    "muted": (422, "A mute character cannot use that.", "Un personaje mudo no puede usar eso."),
    "not_allowed_in_prep": (
        422,
        "That is not allowed in the preparation round.",
        "Eso no está permitido en la ronda de preparación.",
    ),
    "not_ambidextrous": (
        422,
        "Only an ambidextrous character can use two weapons.",
        "Solo un personaje ambidiestro puede usar dos armas.",
    ),
    "not_eligible_for_postcombat": (
        422,
        "Only an eligible winner can apply post-combat effects.",
        "Solo un ganador elegible puede aplicar efectos post-combate.",
    ),
    "not_reactable": (422, "That cannot be reacted to.", "A eso no se puede reaccionar."),
    "not_targeted": (
        422,
        "You can only defend what targets you.",
        "Solo puedes defender lo que te tiene como objetivo.",
    ),
    "no_effects_on_stalemate": (
        422,
        "No effects apply after a stalemate.",
        "No se aplican efectos tras unas tablas.",
    ),
    "no_prep_for_late_joiner": (
        422,
        "Late joiners have no preparation round.",
        "Quien entra tarde no tiene ronda de preparación.",
    ),
    "no_trigger": (
        422,
        "Defensive skills only answer an incoming offensive skill.",
        "Las habilidades defensivas solo responden a una habilidad ofensiva recibida.",
    ),
    "on_cooldown": (
        422,
        "That skill is on cooldown.",
        "Esa habilidad está en tiempo de reutilización.",
    ),
    "pa_modification_forbidden": (
        422,
        "Action points cannot be modified.",
        "Los PA no se pueden modificar.",
    ),
    "postcombat_effect_stack": (
        422,
        "Only one such post-combat effect applies.",
        "Solo se aplica uno de esos efectos post-combate.",
    ),
    "prisoner_action_forbidden": (
        422,
        "A prisoner cannot do that.",
        "Un prisionero no puede hacer eso.",
    ),
    "reaction_requirement": (
        422,
        "The reaction requirements are not met.",
        "No se cumplen los requisitos de reacción.",
    ),
    "reaction_uses_exhausted": (
        422,
        "No uses of that reaction left in this combat.",
        "No quedan usos de esa reacción en este combate.",
    ),
    "resist_not_allowed": (
        422,
        "RESISTIR is not allowed here.",
        "RESISTIR no está permitido aquí.",
    ),
    "room_locked": (
        422,
        "The character cannot enter this room yet.",
        "El personaje todavía no puede entrar en esta sala.",
    ),
    "side_full": (422, "That side is full.", "Ese bando está completo."),
    "slot_boost_already_used": (
        422,
        "This side already used a slot-raising skill.",
        "Este bando ya usó una habilidad que aumenta cupos.",
    ),
    "supplementary_affects_enemy": (
        422,
        "Supplementary skills cannot affect enemies.",
        "Las habilidades suplementarias no pueden afectar a enemigos.",
    ),
    "targets_not_declared": (422, "Declare the targets.", "Declara los objetivos."),
    "target_challenge_immune": (
        422,
        "That character cannot be challenged right now.",
        "Ese personaje no puede ser retado ahora mismo.",
    ),
    "target_concealed": (422, "That target is concealed.", "Ese objetivo está oculto."),
    "target_out_of_range": (
        422,
        "The target is out of range.",
        "El objetivo está fuera de alcance.",
    ),
    "target_unreachable_height": (
        422,
        "The target is too high for that reach.",
        "El objetivo está demasiado alto para ese alcance.",
    ),
    "too_many_initial_targets": (
        422,
        "At most two players can be attacked out of combat.",
        "Como máximo se puede atacar a dos jugadores fuera de combate.",
    ),
    "too_many_opponents": (422, "Too many opponents.", "Demasiados oponentes."),
    "use_number_mismatch": (422, "The use number does not match.", "El número de uso no coincide."),
    "use_number_missing": (422, "State the use number.", "Indica el número de uso."),
    "zero_pa_limit": (
        422,
        "At most two 0-PA actions per own turn.",
        "Como máximo dos acciones de 0 PA por turno propio.",
    ),
}
