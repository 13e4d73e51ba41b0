"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// One dashboard chart, drawn by recharts in the browser from plain rows the server component read from the rollups.
// Readable without colour: each series has its own dash pattern (lines) or fill pattern (bars), the legend names it
// in text, and the figure's accessible name summarises the numbers (the table beside it has them all).

export interface ChartSeries {
  key: string;
  label: string;
}

// Each at least 4.5:1 on white; the legend's text is dark whatever its series' colour.
const COLOURS = ["#1f4e79", "#8a4500", "#1b5e20", "#6a1b9a"];
const DASHES = ["", "8 4", "2 3", "12 3 3 3"];
const MARKERS = [{ r: 3 }, { r: 4, strokeWidth: 2, fill: "#fff" }, { r: 2 }, { r: 5, strokeWidth: 1, fill: "#fff" }];

export function DashboardChart({
  kind,
  rows,
  series,
  summary,
}: {
  kind: "line" | "bar";
  rows: Record<string, string | number | null>[];
  series: ChartSeries[];
  summary: string;
}) {
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="#ddd" />
      <XAxis dataKey="day" tick={{ fontSize: 11, fill: "#333" }} tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
      <YAxis tick={{ fontSize: 11, fill: "#333" }} width={56} allowDecimals={false} />
      <Tooltip />
      <Legend wrapperStyle={{ fontSize: 12 }} formatter={(value: string) => <span style={{ color: "#1a1a1a" }}>{value}</span>} />
    </>
  );
  return (
    <div role="img" aria-label={summary} style={{ width: "100%", height: 240 }}>
      <ResponsiveContainer width="100%" height="100%">
        {kind === "line" ? (
          <LineChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            {axes}
            {series.map((s, i) => (
              <Line
                key={s.key}
                type="monotone"
                dataKey={s.key}
                name={s.label}
                stroke={COLOURS[i % COLOURS.length]}
                strokeDasharray={DASHES[i % DASHES.length]}
                strokeWidth={2}
                dot={MARKERS[i % MARKERS.length]}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        ) : (
          <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <defs>
              {series.map((s, i) => (
                <pattern
                  key={s.key}
                  id={`hatch-${s.key.replace(/\W/g, "-")}`}
                  width="6"
                  height="6"
                  patternUnits="userSpaceOnUse"
                  patternTransform={`rotate(${i * 45})`}
                >
                  <rect width="6" height="6" fill={COLOURS[i % COLOURS.length]} />
                  {i > 0 && <line x1="0" y1="0" x2="0" y2="6" stroke="#fff" strokeWidth="3" />}
                </pattern>
              ))}
            </defs>
            {axes}
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={`url(#hatch-${s.key.replace(/\W/g, "-")})`}
                stroke={COLOURS[i % COLOURS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        )}
      </ResponsiveContainer>
    </div>
  );
}
