// A new character's first sheet, per ruleset: the smallest sheet the server accepts.
export const TEMPLATES = {
  umh: (name) => ({
    name,
    ruleset: "umh",
    stats: { vit: 1000, vel: 6, ref: 3, vol: 2, fue: 100, rank: 1, vigor: 5 },
    resistance: { value: 0, hardness: "acero" },
    skills: [
      { name: "Puño", tier: 1, pa: 2, type: "offensive", natures: ["fisica"], damage: 120, reach: 1 },
      { name: "Bloqueo", tier: 1, pa: 1, type: "defensive", defense_kind: "internal", natures: ["fisica"], defense: 80 },
    ],
  }),
  cypher: (name) => ({
    name,
    ruleset: "cypher",
    kind: "pc",
    pools: { might: 10, speed: 10, intellect: 10 },
    edges: { might: 1 },
    tier: 1,
    effort: 1,
    armor: 0,
    attacks: [{ name: "Espada", damage: 4, kind: "melee" }],
  }),
  l5r: (name) => ({
    name,
    ruleset: "l5r",
    rings: { earth: 2, air: 2, water: 2, fire: 2, void: 2 },
    traits: { reflexes: 2, agility: 2, strength: 2 },
    insight_rank: 1,
    skills: { kenjutsu: 1, defense: 1 },
    armor_tn: 0,
    weapon: { name: "Katana", damage: "3k2" },
  }),
};
