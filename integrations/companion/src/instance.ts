/**
 * The Companion instance: wires the Companion-free logic (link, connection, definitions) into
 * @companion-module/base's InstanceBase. main.ts runs it; tests construct it with the host stubbed.
 */
import { InstanceBase, InstanceStatus, type SomeCompanionConfigField } from "@companion-module/base";
import { Connection, type Status } from "./connection.ts";
import {
  actionDefinitions,
  configFields,
  feedbackDefinitions,
  type ModuleConfig,
  type ModuleSecrets,
  presetDefinitions,
  VARIABLE_DEFINITIONS,
} from "./definitions.ts";
import { ConfigProblem, parseTarget } from "./link.ts";

export type { ModuleConfig, ModuleSecrets };

export class TimerInstance extends InstanceBase<ModuleConfig, ModuleSecrets> {
  #connection: Connection | null = null;

  override async init(
    config: ModuleConfig,
    _isFirstInit: boolean,
    secrets: ModuleSecrets,
  ): Promise<void> {
    const get = () => this.#connection;
    this.setActionDefinitions(actionDefinitions(get));
    this.setFeedbackDefinitions(feedbackDefinitions(get));
    this.setVariableDefinitions(VARIABLE_DEFINITIONS);
    await this.configUpdated(config, secrets);
  }

  override async configUpdated(
    config: ModuleConfig,
    secrets: ModuleSecrets,
  ): Promise<void> {
    // The label (the variables' prefix) may have changed with the config.
    this.setPresetDefinitions(presetDefinitions(this.label));
    await this.#connection?.stop();
    this.#connection = null;
    let target;
    try {
      target = parseTarget(config?.site_url, secrets?.control_link);
    } catch (e) {
      if (!(e instanceof ConfigProblem)) throw e;
      this.updateStatus(InstanceStatus.BadConfig, e.message);
      return;
    }
    const connection = new Connection(target, {
      onVariables: (changed) => this.setVariableValues(changed),
      onFeedbacks: (ids) => this.checkFeedbacks(...ids),
      onStatus: (status) => this.#status(status),
    });
    this.#connection = connection;
    connection.start();
  }

  #status(status: Status) {
    if (status.kind === "ok") this.updateStatus(InstanceStatus.Ok);
    else if (status.kind === "connecting") {
      this.updateStatus(InstanceStatus.Connecting);
    } else if (status.kind === "gone") {
      this.updateStatus(InstanceStatus.BadConfig, status.message);
    } else {
      this.updateStatus(InstanceStatus.ConnectionFailure, status.message);
    }
    if (status.kind !== "ok" && status.kind !== "connecting") {
      this.log("warn", status.message);
    }
  }

  override async destroy(): Promise<void> {
    await this.#connection?.stop();
    this.#connection = null;
  }

  override getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }
}
