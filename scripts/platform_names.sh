#!/bin/sh
# Lines of platform code naming a Firenze game concept (issue 10: goal 0 outside the engine,
# games/rules/firenze/):
# migrations of old data and comments that merely say "e.g." are left out. The site's own
# name, Firenze, is not counted here.
cd "$(dirname "$0")/.." && grep -rniE --include='*.py' --include='*.html' --include='*.txt' \
 '\b(campanile|towers?|bricks?|commissions?|balcon(y|ies)|seals?|sealed|storehouse|pp|prestige|alchemist|architect|mason|patrician|princess|saboteur|smuggler|wholesaler|warehouse|workshop|privilege|luxury tax)\b' \
 games players notifications chat accounts templates firenze_site tournaments | grep -v '/migrations/' \
 | grep -v '^games/rules/firenze/' | grep -v 'e\.g\.'
