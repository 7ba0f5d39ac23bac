package play

import (
	"reflect"
	"testing"

	"primegames/domain"
)

// TestPartsHoldNarrowPorts checks that each part of the service holds ports, not the whole
// Stores: every field of a part is an interface of at most maxPartPortMethods methods, or one of
// the settings the service is configured with at New.
func TestPartsHoldNarrowPorts(t *testing.T) {
	t.Parallel()
	const maxPartPortMethods = 15
	settings := map[reflect.Type]bool{reflect.TypeFor[WebhookConfig](): true, reflect.TypeFor[*domain.Catalogue](): true,
		reflect.TypeFor[signInKey](): true}
	partTypes := map[reflect.Type]bool{}
	for i := range reflect.TypeFor[parts]().NumField() {
		partTypes[reflect.TypeFor[parts]().Field(i).Type] = true
	}
	all := reflect.TypeFor[parts]()
	if all.NumField() < 2 {
		t.Fatalf("parts has %d fields; is the check reading it?", all.NumField())
	}
	for i := range all.NumField() {
		part := all.Field(i)
		if part.Type.Kind() != reflect.Struct {
			t.Errorf("parts.%s is a %s, not a part", part.Name, part.Type.Kind())
			continue
		}
		for j := range part.Type.NumField() {
			f := part.Type.Field(j)
			switch {
			case f.Type == reflect.TypeFor[Stores]():
				t.Errorf("%s.%s holds the whole Stores; give it the ports it uses", part.Type.Name(), f.Name)
			case settings[f.Type], partTypes[f.Type]: // a setting, or a part it works through (checked itself)
			case f.Type.Kind() != reflect.Interface:
				t.Errorf("%s.%s is a %s, not a port", part.Type.Name(), f.Name, f.Type)
			case f.Type.NumMethod() > maxPartPortMethods:
				t.Errorf("%s.%s (%s) has %d methods, more than %d", part.Type.Name(), f.Name, f.Type, f.Type.NumMethod(), maxPartPortMethods)
			}
		}
	}
}

// TestPartsTakeTheirPortsFromTheStores checks that New gives each part's ports from the Stores.
func TestPartsTakeTheirPortsFromTheStores(t *testing.T) {
	t.Parallel()
	p := newParts(Stores{ClassroomStore: fakeClassrooms{}, History: fakeHistory{}, WebhookSubscriptions: fakeSubscriptions{}, GameReader: fakeGames{}, ReviewStore: fakeReviews{}, StatsStore: fakeStats{}, ProgressStore: fakeProgress{}, Authorities: fakeAuthorities{}, Updater: fakeUpdater{}}, &Service{clock: SystemClock()})
	if p.classrooms.store == nil || p.histories.history == nil || p.subscriptions.store == nil || p.subscriptions.games == nil || p.subscriptions.clock == nil ||
		p.reviews.store == nil || p.reviews.history == nil ||
		p.statistics.stats == nil || p.statistics.reviews == nil || p.statistics.students == nil || p.statistics.summaries == nil ||
		p.listings.games == nil || p.listings.clock == nil ||
		p.authorities.store == nil || p.authorities.clock == nil || p.observers.games == nil || p.observers.updater == nil || p.observers.clock == nil {
		t.Fatalf("parts built without their ports: %+v", p)
	}
}

type fakeClassrooms struct{ ClassroomStore }
type fakeProgress struct{ ProgressStore }
type fakeHistory struct{ History }
type fakeSubscriptions struct{ WebhookSubscriptions }
type fakeGames struct{ GameReader }
type fakeReviews struct{ ReviewStore }
type fakeStats struct{ StatsStore }
type fakeAuthorities struct{ Authorities }
type fakeUpdater struct{ Updater }
