import { ALL_TOPICS, MemoryBus, type BusEvent } from "../../bus/index";
import { Telemetry, type TelemetryEvent } from "../../telemetry/index";

/**
 * A bus and a telemetry to start a host with, recording what each publishes, so a test can check
 * that every lifecycle topic is both published and emitted once per occurrence.
 */
export function recordTopics() {
  const bus = new MemoryBus();
  const telemetry = new Telemetry();
  const topics: BusEvent[] = [];
  const events: TelemetryEvent[] = [];
  bus.subscribe(ALL_TOPICS, (event) => void topics.push(event));
  telemetry.subscribe((event) => events.push(event));
  /** How often `topic` was published on the bus and emitted as `cyclium.{topic}`. */
  const count = (topic: string) => ({
    bus: topics.filter((event) => event.topic === topic).length,
    telemetry: events.filter((event) => event.name === `cyclium.${topic}`).length,
  });
  return { bus, telemetry, topics, count };
}
