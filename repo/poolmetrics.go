package repo

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolMetrics reports the connection pool's figures, and the game record cache's, to Prometheus.
func (db *DB) PoolMetrics() prometheus.Collector { return poolCollector{pool: db.Pool, db: db} }

// poolCollector reads the connection pool's statistics at each scrape.
type poolCollector struct {
	pool *pgxpool.Pool
	db   *DB
}

var (
	poolTotal    = prometheus.NewDesc("db_pool_connections", "Connections in the pool.", nil, nil)
	poolAcquired = prometheus.NewDesc("db_pool_acquired_connections", "Connections in use.", nil, nil)
	poolIdle     = prometheus.NewDesc("db_pool_idle_connections", "Idle connections.", nil, nil)
	poolMax      = prometheus.NewDesc("db_pool_max_connections", "The pool's size limit.", nil, nil)
	poolAcquires = prometheus.NewDesc("db_pool_acquires_total", "Connections acquired from the pool.", nil, nil)
	poolWaits    = prometheus.NewDesc("db_pool_empty_acquires_total", "Acquires that had to wait for a connection.", nil, nil)
	poolWaited   = prometheus.NewDesc("db_pool_acquire_wait_seconds_total", "Time spent acquiring connections.", nil, nil)

	recordHits    = prometheus.NewDesc("db_record_cache_hits_total", "Reads of a game answered from the records kept (after the barrier).", nil, nil)
	recordMisses  = prometheus.NewDesc("db_record_cache_misses_total", "Reads of a game that read Postgres.", nil, nil)
	recordGames   = prometheus.NewDesc("db_record_cache_games", "Games whose records are kept.", nil, nil)
	recordBytes   = prometheus.NewDesc("db_record_cache_bytes", "About the bytes the kept records hold.", nil, nil)
	recordTrusted = prometheus.NewDesc("db_record_cache_listening", "1 while the listener is connected, so that kept records are used.", nil, nil)
	recordPings   = prometheus.NewDesc("db_record_cache_barrier_pings_total",
		"Pings sent by the barrier that makes a read of a kept record wait until every change committed before it was heard; one ping answers every read waiting.", nil, nil)
	recordOneTrip = prometheus.NewDesc("db_record_cache_one_trip_actions_total",
		"Actions sent in one round trip on a kept record, by outcome: applied, or stale (the game had changed; done again as before).",
		[]string{"outcome"}, nil)
)

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolTotal, poolAcquired, poolIdle, poolMax, poolAcquires, poolWaits, poolWaited,
		recordHits, recordMisses, recordGames, recordBytes, recordTrusted, recordPings, recordOneTrip} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := p.pool.Stat()
	ch <- prometheus.MustNewConstMetric(poolTotal, prometheus.GaugeValue, float64(st.TotalConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquired, prometheus.GaugeValue, float64(st.AcquiredConns()))
	ch <- prometheus.MustNewConstMetric(poolIdle, prometheus.GaugeValue, float64(st.IdleConns()))
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(st.MaxConns()))
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(st.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(st.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(poolWaited, prometheus.CounterValue, st.AcquireDuration().Seconds())
	rs := p.db.RecordCacheStats()
	listening := 0.0
	if rs.Trusted {
		listening = 1
	}
	ch <- prometheus.MustNewConstMetric(recordHits, prometheus.CounterValue, float64(rs.Hits))
	ch <- prometheus.MustNewConstMetric(recordMisses, prometheus.CounterValue, float64(rs.Misses))
	ch <- prometheus.MustNewConstMetric(recordGames, prometheus.GaugeValue, float64(rs.Games))
	ch <- prometheus.MustNewConstMetric(recordBytes, prometheus.GaugeValue, float64(rs.Bytes))
	ch <- prometheus.MustNewConstMetric(recordTrusted, prometheus.GaugeValue, listening)
	ch <- prometheus.MustNewConstMetric(recordPings, prometheus.CounterValue, float64(rs.Pings))
	ch <- prometheus.MustNewConstMetric(recordOneTrip, prometheus.CounterValue, float64(rs.OneTrip), "applied")
	ch <- prometheus.MustNewConstMetric(recordOneTrip, prometheus.CounterValue, float64(rs.OneTripStale), "stale")
}
