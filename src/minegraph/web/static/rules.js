// Generated from src/minegraph/present.py (page_rules_module) by `make page-rules`:
// do not edit (tests/web/test_page_rules.py fails when it is out of date).

// The heat map's stops (present.HEAT_STOPS): green at 0, yellow at 1/2, red at 1.
export const HEAT_STOPS = [[67, 160, 71], [253, 216, 53], [229, 57, 53]];
