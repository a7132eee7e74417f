package kubevela

import "github.com/drydock-dev/drydock/render/rendertest"

// The shared test helpers (package rendertest), by their local names.
var (
	parseApp = rendertest.App
	policies = rendertest.Policies
	errText  = rendertest.ErrText
	errPos   = rendertest.ErrPos
)
