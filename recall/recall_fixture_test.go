package recall_test

import "time"

// t0 is the synthetic fixtures' "now", day their unit of age.
var t0 = time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)

const day = 24 * time.Hour
