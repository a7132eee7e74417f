package workflow

import (
	"crypto/sha256"
	"math/big"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// stepContext is the `context` a step's outputs and `if` see: KubeVela's
// workflow process context (cueval.WorkflowContext) with the step's
// stepName, stepSessionID and spanID (kubevela/workflow v0.6.4
// pkg/tasks/custom/task.go: fillContext; MakeBasicValue puts the context
// beside the step's parameter, and outputs evaluate over the step's
// value). KubeVela draws the step's session id at random (pkg/generator
// generateStepID: rand.RandomString(10)) and the span id is its trace
// id; drydock derives both from the step, so a render is reproducible.
func (w *workflowRun) stepContext(step string) map[string]any {
	ctx := cueval.WorkflowContext(w.app, w.clusterVersion(cluster.Local))
	id := stepID(w.app, step)
	ctx["stepName"] = step
	ctx["stepSessionID"] = id
	ctx["spanID"] = stepID(w.app, "") + "." + id
	return ctx
}

// stepID is a 10-character id of lower-case letters and digits, as
// KubeVela's generateStepID gives, derived from the Application and the
// step name.
func stepID(app *render.Application, step string) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	sum := sha256.Sum256([]byte(app.Namespace + "/" + app.Name + "/" + step))
	n := new(big.Int).SetBytes(sum[:])
	base := big.NewInt(int64(len(alphabet)))
	out := make([]byte, 10)
	for i := range out {
		var r big.Int
		n.DivMod(n, base, &r)
		out[i] = alphabet[r.Int64()]
	}
	return string(out)
}
