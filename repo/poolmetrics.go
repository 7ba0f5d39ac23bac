package repo

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// PoolMetrics reports the connection pool's figures to Prometheus.
func (db *DB) PoolMetrics() prometheus.Collector { return poolCollector{pool: db.Pool} }

// poolCollector reads the connection pool's statistics at each scrape.
type poolCollector struct{ pool *pgxpool.Pool }

var (
	poolTotal    = prometheus.NewDesc("db_pool_connections", "Connections in the pool.", nil, nil)
	poolAcquired = prometheus.NewDesc("db_pool_acquired_connections", "Connections in use.", nil, nil)
	poolIdle     = prometheus.NewDesc("db_pool_idle_connections", "Idle connections.", nil, nil)
	poolMax      = prometheus.NewDesc("db_pool_max_connections", "The pool's size limit.", nil, nil)
	poolAcquires = prometheus.NewDesc("db_pool_acquires_total", "Connections acquired from the pool.", nil, nil)
	poolWaits    = prometheus.NewDesc("db_pool_empty_acquires_total", "Acquires that had to wait for a connection.", nil, nil)
	poolWaited   = prometheus.NewDesc("db_pool_acquire_wait_seconds_total", "Time spent acquiring connections.", nil, nil)
)

func (p poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolTotal, poolAcquired, poolIdle, poolMax, poolAcquires, poolWaits, poolWaited} {
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
}
