package primegames

import (
	"go/importer"
	"go/token"
	"go/types"
	"testing"
)

// maxPortMethods bounds every port play declares, the methods of the interfaces it embeds counted:
// a part of the service asks for what it uses, and a test fakes it cheaply.
const maxPortMethods = 15

// portPackages are the packages whose exported interfaces are ports, with the least number of
// interfaces each declares (a check that the check reads them).
var portPackages = map[string]int{"primegames/play": 10, "primegames/play/webhooks": 2}

func TestPortsAreNarrow(t *testing.T) {
	t.Parallel()
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	for path, least := range portPackages {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		ports := 0
		for _, name := range pkg.Scope().Names() {
			obj, ok := pkg.Scope().Lookup(name).(*types.TypeName)
			if !ok || !obj.Exported() {
				continue
			}
			iface, ok := obj.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			ports++
			if n := iface.NumMethods(); n > maxPortMethods {
				t.Errorf("%s.%s has %d methods, more than %d: split it along its uses", pkg.Name(), name, n, maxPortMethods)
			}
		}
		if ports < least {
			t.Errorf("%s declares only %d interfaces; is the check reading the package?", path, ports)
		}
	}
}
