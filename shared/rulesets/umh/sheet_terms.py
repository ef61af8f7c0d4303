"""The umh sheet's vocabularies: natures, hardness grades, skill and defense kinds, areas,
effect types, heights and weapon classes (docs/rules.md section 10), in Spanish where the
communities write them so."""

from __future__ import annotations

from enum import StrEnum


class Nature(StrEnum):
    """Índoles (umh 7.1)."""

    FISICA = "fisica"
    ELEMENTAL = "elemental"
    AGUA = "agua"
    FUEGO = "fuego"
    ELECTRICA = "electrica"
    LUZ = "luz"
    OSCURIDAD = "oscuridad"
    ENERGETICA = "energetica"
    PSIONICA = "psionica"
    SONORA = "sonora"
    MENTAL = "mental"
    MISTICA = "mistica"
    ALMA = "alma"
    FUEGO_INFERNAL = "fuego_infernal"
    CRONOQUINETICA = "cronoquinetica"
    TELETRANSPORTADORA = "teletransportadora"


class Hardness(StrEnum):
    """Hardness scale, lowest to highest (umh 9.6.1)."""

    HIERRO = "hierro"
    ACERO = "acero"
    DIAMANTE = "diamante"
    ACERO_ORGANICO = "acero_organico"
    CARBONADIUM = "carbonadium"
    ADAMANTIUM = "adamantium"
    ADAMANTINO = "adamantino"
    VIBRANIUM = "vibranium"

    @property
    def rank(self) -> int:
        return list(Hardness).index(self) + 1


class SkillType(StrEnum):
    """umh 8.1."""

    OFFENSIVE = "offensive"
    SUPPLEMENTARY = "supplementary"
    DEFENSIVE = "defensive"


class DefenseKind(StrEnum):
    """umh 8.2 and 9.2.4 - 9.2.5."""

    EVASION = "evasion"
    ANTICIPATION = "anticipation"
    ANNULMENT = "annulment"
    COUNTER = "counter"
    REFLECTION = "reflection"
    INTERNAL = "internal"
    EXTERNAL = "external"


class AreaShape(StrEnum):
    """umh 6.1.1."""

    LINE = "line"
    SQUARE = "square"
    ON_SELF = "on_self"
    ON_TARGET = "on_target"
    CONE = "cone"
    SPECIAL = "special"


class IndirectType(StrEnum):
    """umh 11.3."""

    ASFIXIA = "asfixia"
    DOLOR = "dolor"
    ENFERMEDAD = "enfermedad"
    ENVENENAMIENTO = "envenenamiento"
    HEMORRAGIA = "hemorragia"
    MALEFICIO = "maleficio"
    QUEMADURA = "quemadura"
    NO_CATALOGADO = "no_catalogado"


class ControlType(StrEnum):
    """umh 11.4."""

    ATURDIMIENTO = "aturdimiento"
    DESMAYO = "desmayo"
    DORMIDO = "dormido"
    PARALISIS = "paralisis"
    PETRIFICACION = "petrificacion"
    CONGELACION = "congelacion"


class StateType(StrEnum):
    """umh 11.5."""

    INMOVILIZACION = "inmovilizacion"
    DERRIBO = "derribo"
    INHABILITACION_BRAZO = "inhabilitacion_brazo"
    INHABILITACION_BRAZOS = "inhabilitacion_brazos"
    INHABILITACION_PIERNA = "inhabilitacion_pierna"
    INHABILITACION_PIERNAS = "inhabilitacion_piernas"
    INHABILITACION_ALA = "inhabilitacion_ala"
    INHABILITACION_ALAS = "inhabilitacion_alas"
    AMPUTACION = "amputacion"
    CEGUERA = "ceguera"
    SORDERA = "sordera"
    MUDEZ = "mudez"
    DESORIENTACION = "desorientacion"
    ENAMORAMIENTO = "enamoramiento"
    MIEDO = "miedo"
    MOJADO = "mojado"
    OCULTACION = "ocultacion"


class Height(StrEnum):
    """Combat positions (umh 10.1, reading A-39: heights 0, 3, 5)."""

    SUELO = "suelo"
    ALZADA = "alzada"
    VOLADORA = "voladora"


class WeaponClass(StrEnum):
    """Weapon classes of the attribute system (umh 12.1.1, reading A-81)."""

    FIREARM = "firearm"
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
