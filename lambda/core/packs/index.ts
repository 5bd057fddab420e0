// The rule packs shipped with stacks-watch, and their expansion into the rules they stand for. A new pack is
// one module (a RulePack) and one line in RULE_PACKS.
export { describePacks, expandPacks, packsSchema } from './expand';
export { PACK_LISTS, PACK_SECTIONS, type AnyRulePack, type PackRules, type RulePack } from './pack';
export { RULE_PACKS } from './registry';
