// held-out project: "carebridge" — clinical data integration service for a network of outpatient clinics
// (Kotlin/JVM + Ktor, HL7 v2 over MLLP, HAPI FHIR R4, MPI, LOINC/SNOMED/ICD-10, HIPAA audit, PHI encryption,
//  RabbitMQ → Azure Service Bus, Twilio SMS reminders, Angular admin UI, Postgres partitioning, AKS + Key Vault)
import { build } from '../lib.mjs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const INGEST = 'services/ingest/src/main/kotlin/org/carebridge/ingest';
const PROC = 'services/processor/src/main/kotlin/org/carebridge/processor';
const FHIR = 'services/fhir-api/src/main/kotlin/org/carebridge/fhir';
const ADMIN = 'services/admin-api/src/main/kotlin/org/carebridge/admin';
const REM = 'services/reminders/src/main/kotlin/org/carebridge/reminders';
const MPI = 'libs/mpi/src/main/kotlin/org/carebridge/mpi';
const CRYPTO = 'libs/phi-crypto/src/main/kotlin/org/carebridge/crypto';
const QUEUE = 'libs/queue/src/main/kotlin/org/carebridge/queue';
const TERM = 'libs/terminology/src/main/kotlin/org/carebridge/terminology';

const sessions = [
  // s01 — scaffolding
  { start: '2026-05-11T09:05', items: [
    '$ gradle init --type kotlin-application --dsl kotlin --project-name carebridge | Gradle 8.14 wrapper created',
    ['ktor', 'D', 'Services are Kotlin 2.1 on JVM 21 with Ktor 3 (Netty engine) rather than Spring Boot: smaller startup footprint on AKS, coroutines end to end, and the MLLP listener can share the Netty event loop.', { reason: 'lighter runtime, coroutine-native', alternative: 'Spring Boot 3' }],
    'M settings.gradle.kts | include services:ingest, services:processor, services:fhir-api, services:admin-api, libs:hl7, libs:mpi',
    'M gradle/libs.versions.toml | ktor 3.1.2, hapi-structures-v251 2.5.1, exposed 0.60.0, flyway 11.8',
    ['catalog', 'P', 'All dependency versions live in gradle/libs.versions.toml; user rejects hard-coded versions in module build.gradle.kts files and wants ktlint with no wildcard imports enforced in CI.', { tags: ['tooling', 'gradle'] }],
    'M build-logic/src/main/kotlin/carebridge.kotlin-conventions.gradle.kts | jvmToolchain(21), ktlint plugin, allWarningsAsErrors',
    '$ ./gradlew build | BUILD SUCCESSFUL in 41s',
    '$ git commit -m "chore: scaffold gradle multi-module" | 3e1a7c2',
  ]},
  // s02 — MLLP listener + HL7 parsing
  { start: '2026-05-13T10:15', items: [
    'E docs/interfaces/meridian-labs-spec-v3.2.pdf | ORU^R01 and ADT^A04/A08, HL7 2.5.1',
    ['hapihl7', 'D', 'Parse HL7 v2 with HAPI HL7v2 (ca.uhn.hapi 2.5.1) using the GenericParser with NoValidation; libs/hl7 maps the HAPI structures to our own domain types so nothing else depends on HAPI classes.', { files: ['libs/hl7/src/main/kotlin/org/carebridge/hl7/Hl7Parser.kt'] }],
    ['ownparser', 'R', 'Considered writing a small pipe-and-hat splitter ourselves; rejected because repetitions, component escaping and Z-segments make a hand parser a long tail of bugs.', { alternative: 'HAPI HL7v2' }],
    'M libs/hl7/src/main/kotlin/org/carebridge/hl7/Hl7Parser.kt | GenericParser, NoValidation',
    `M ${INGEST}/mllp/MllpFrameDecoder.kt | strip 0x0B start byte, 0x1C 0x0D end block`,
    ['mllpframe', 'K', 'MLLP framing: each message starts with 0x0B (VT) and ends with 0x1C 0x0D (FS CR); segments inside are separated by CR only, never LF. Several vendors send a stray LF after the end block, which the decoder must tolerate.', { tags: ['mllp', 'hl7'] }],
    '$ mllp_send --file samples/meridian/oru_r01_cbc.hl7 --port 2575 localhost | MSA|AA|MER20260513001',
    `E ${INGEST}/mllp/MllpServer.kt`,
    '$ ./gradlew :libs:hl7:test | 18 tests passed',
  ]},
  // s03 — RabbitMQ + ACK timeout
  { start: '2026-05-15T08:50', items: [
    ['rabbit', 'D', 'Ingest publishes each received HL7 message to RabbitMQ (quorum queue hl7.inbound) and the processor consumes it; RabbitMQ runs inside the AKS cluster from the Bitnami Helm chart.', { reason: 'team knows it, cheap to run in-cluster', tags: ['queue', 'rabbitmq'] }],
    `M ${INGEST}/publish/RabbitPublisher.kt | publisher confirms on`,
    'M deploy/helm/rabbitmq/values.yaml | 3 replicas, quorum queues',
    '$ helm install rabbitmq bitnami/rabbitmq -n carebridge -f deploy/helm/rabbitmq/values.yaml | deployed',
    '$ mllp_send --file samples/meridian/oru_batch_50.hl7 --port 2575 localhost | 50 sent, 12 resent by the LIS simulator',
    ['acktimeout', 'X', 'Meridian LIS resent ORU messages because our ACK arrived after its 30 s ack timeout: ingest was parsing, matching the patient and writing results before answering. Now ingest only stores the raw bytes in inbound_messages, publishes, and returns MSA|AA immediately; everything else is async in the processor. The resends had produced double rows in lab_results.', { files: [`${INGEST}/mllp/MllpHandler.kt`], tags: ['mllp', 'timeout'] }],
    `M ${INGEST}/mllp/MllpHandler.kt | persist + publish, then ACK`,
    ['ackfirst', 'K', 'Original-mode ACK semantics: AA means accepted by the receiver, not fully processed, so it is fine to ACK once the message is durably stored. AE/AR are only for messages we cannot store or parse.', { tags: ['hl7', 'ack'] }],
    '$ ./gradlew :services:ingest:test | 24 passed',
  ]},
  // s04 — Postgres + Flyway + partitioning
  { start: '2026-05-18T09:30', items: [
    ['pgflex', 'D', 'Database is Azure Database for PostgreSQL Flexible Server 16 (zone-redundant HA, General Purpose D4ds_v5) behind a private endpoint; schema managed with Flyway from db/migrations.', { reason: 'managed HA inside the VNet' }],
    ['flywaynaming', 'P', 'User wants Flyway migrations named V<yyyyMMddHHmm>__<verb>_<object>.sql (e.g. V202605181000__create_patients.sql), one change per file, and never editing a migration after it has been applied anywhere.', { tags: ['flyway', 'migrations'] }],
    'M db/migrations/V202605181000__create_patients.sql | patients, patient_identifiers',
    'M db/migrations/V202605181015__create_inbound_messages.sql | PARTITION BY RANGE (received_at)',
    ['partmonthly', 'D', 'inbound_messages, lab_results and audit_events are range-partitioned by month on their timestamp column; partitions are created three months ahead by pg_partman, run from pg_cron.', { reason: 'cheap retention by detaching partitions, smaller indexes', tags: ['postgres', 'partitioning'] }],
    '$ ./gradlew flywayMigrate -Pflyway.url=jdbc:postgresql://localhost:5432/carebridge | Successfully applied 2 migrations',
    '$ psql -d carebridge -c "\\d+ inbound_messages" | Partition key: RANGE (received_at)',
    ['partpk', 'K', 'On a partitioned table every primary key and unique constraint must include the partition key, so inbound_messages has PRIMARY KEY (id, received_at); lookups by id alone touch every partition.', { files: ['db/migrations/V202605181015__create_inbound_messages.sql'] }],
    'E docker-compose.yml | postgres:16 with pg_partman image for local dev',
  ]},
  // s05 — FHIR API
  { start: '2026-05-20T13:00', items: [
    'E docs/portal/requirements.md | portal needs Patient, Observation, DiagnosticReport, Appointment',
    ['hapiplain', 'D', 'FHIR R4 API is a HAPI FHIR plain RestfulServer with our own resource providers reading the carebridge schema, hosted in embedded Jetty 12 inside services/fhir-api.', { reason: 'single source of truth for PHI; our partitioning and encryption apply', files: [`${FHIR}/PatientProvider.kt`] }],
    ['jparej', 'R', 'Rejected the HAPI FHIR JPA server: it brings its own ~200-table schema, so PHI would be stored twice and kept in sync, and its HFJ_ tables ignore our partitioning and field encryption.', { alternative: 'plain RestfulServer over our schema' }],
    `M ${FHIR}/FhirServer.kt | RestfulServer registered on /fhir/*`,
    `M ${FHIR}/PatientProvider.kt | @Read, @Search by identifier`,
    ['fhirctx', 'K', 'FhirContext.forR4() takes about 2 s and a lot of heap to build because it scans every model class; use FhirContext.forR4Cached() once per JVM and share it across providers and parsers.', { tags: ['hapi', 'fhir', 'performance'] }],
    '$ curl -s "localhost:8082/fhir/Patient?identifier=urn:oid:2.16.840.1.113883.3.7421|MRN001234" | Bundle total 1',
    '$ ./gradlew :services:fhir-api:test | 31 passed',
  ]},
  // s06 — MPI plan + deterministic matcher
  { start: '2026-05-22T10:40', items: [
    ['mpiplan', 'PL', "MPI plan: (1) deterministic match on identifier + assigning authority and on exact demographics, (2) weighted probabilistic scoring of demographics, (3) manual review queue in the admin UI for uncertain pairs, (4) merge/unmerge including ADT^A40 from the clinics' EHR.", { tags: ['mpi'] }],
    ['mpidet', 'D', 'First MPI version links an incoming PID to an existing patient only on exact match of (assigning authority, MRN) or of last name + date of birth + sex + SSN last 4; anything else creates a new patient.', { files: [`${MPI}/DeterministicMatcher.kt`] }],
    `M ${MPI}/DeterministicMatcher.kt`,
    'M db/migrations/V202605221100__create_patient_links.sql | patient_links(source_id, golden_id)',
    '$ ./gradlew :libs:mpi:test | 14 passed',
    ['mpistep1', 'PS', 'MPI step 1 done: deterministic matcher live in the processor; 2,310 test patients from the Meridian sample feed collapse to 1,972 golden records.'],
    'E samples/meridian/adt_a04_sample.hl7',
  ]},
  // s07 — encoding problem #1 (charset)
  { start: '2026-05-26T09:10', items: [
    '$ kubectl -n carebridge-dev logs deploy/processor --since=1h | PID-5 shows Mu?oz^Jos?',
    'E samples/meridian/adt_a08_accents.hl7 | MSH-18 = 8859/1',
    ['latin1', 'X', 'Patient names from Meridian arrived as "Mu\uFFFDoz" and "Jos\uFFFD": the feed is ISO-8859-1 (MSH-18 = 8859/1) but ingest decoded the bytes as UTF-8. MllpFrameDecoder now peeks at MSH-18 and picks the charset, defaulting to windows-1252 when MSH-18 is empty.', { files: [`${INGEST}/mllp/MllpFrameDecoder.kt`], tags: ['encoding', 'hl7'] }],
    `M ${INGEST}/mllp/MllpFrameDecoder.kt | charset from MSH-18`,
    ['msh18', 'K', 'HL7 MSH-18 values map to Java charsets: 8859/1 → ISO-8859-1, UNICODE UTF-8 → UTF-8; ASCII or empty should be treated as windows-1252 in practice because most US LIS products send cp1252 regardless.', { tags: ['encoding'] }],
    'M libs/hl7/src/test/resources/adt_a08_latin1.hl7 | fixture with ñ and é',
    '$ ./gradlew :services:ingest:test --tests "*Charset*" | 6 passed',
    '$ psql -d carebridge -f scripts/fix_mojibake_names.sql | UPDATE 143',
  ]},
  // s08 — pgcrypto (later superseded) + logging preference
  { start: '2026-05-28T14:20', items: [
    ['pgcrypto', 'D', 'Sensitive columns (ssn, phone, email, street address) encrypted in Postgres with pgcrypto pgp_sym_encrypt; the symmetric key comes from the PHI_KEY environment variable and is passed as a query parameter.', { reason: 'quickest way to get per-column encryption at rest', tags: ['phi', 'encryption'] }],
    'E docs/security/hipaa-safeguards.md | 164.312(a)(2)(iv) encryption and decryption',
    ['azext', 'K', 'Azure PostgreSQL Flexible Server only allows CREATE EXTENSION for extensions listed in the azure.extensions server parameter; pgcrypto, pg_partman and pg_cron had to be allowlisted first.', { tags: ['azure', 'postgres'] }],
    '$ az postgres flexible-server parameter set -g rg-carebridge-dev -s pg-carebridge-dev -n azure.extensions -v PGCRYPTO,PG_PARTMAN,PG_CRON | ok',
    'M db/migrations/V202605281430__encrypt_patient_columns.sql | bytea columns, pgp_sym_encrypt',
    `M ${PROC}/repo/PatientRepository.kt | pgp_sym_decrypt in selects`,
    ['nophilogs', 'P', 'Never write PHI to logs, traces or exception messages: log only the internal cb_patient_id and the message control id (MSH-10). User wants a logback mask filter as a backstop, not as the primary control.', { tags: ['hipaa', 'logging'] }],
    'M services/common/src/main/resources/logback.xml | PhiMaskingConverter',
    '$ ./gradlew test | BUILD SUCCESSFUL, 187 tests',
  ]},
  // s09 — terminology (LOINC)
  { start: '2026-06-01T09:45', items: [
    'E terminology/maps/meridian_local_codes.csv | 1,184 local test codes',
    ['loincmap', 'D', 'Local lab codes are mapped to LOINC through a per-lab table terminology.code_map (lab_id, local_code, loinc_code) loaded from CSV files that clinical informatics maintains in git under terminology/maps/.', { files: ['terminology/maps/meridian.csv'], tags: ['loinc', 'terminology'] }],
    ['termserver', 'R', 'Rejected calling a terminology server (Snowstorm / Ontoserver) at run time for each ORU: adds 50–200 ms per OBX and makes result processing depend on one more thing being up. Maps are loaded into an in-memory Caffeine cache instead.', { alternative: 'local code_map table + cache' }],
    `M ${TERM}/CodeMapCache.kt | Caffeine, refresh every 15 min`,
    '$ ./gradlew :tools:loinc-loader:run --args="--file Loinc_2.80/LoincTableCore.csv" | loaded 104,322 codes',
    '$ psql -d carebridge -c "select count(*) from lab_results where loinc_code is null" | 1,871 unmapped rows',
    'M db/migrations/V202606011000__create_code_map.sql',
    '$ ./gradlew :libs:terminology:test | 22 passed',
  ]},
  // s10 — results on the wrong patient
  { start: '2026-06-03T11:00', items: [
    `E ${PROC}/oru/OruHandler.kt`,
    '$ psql -d carebridge -f scripts/check_result_patient_mismatch.sql | 37 mismatched rows',
    ['pid3', 'X', 'Lab results landed on the wrong patient: OruHandler took the first repetition of PID-3, which for Meridian is their own lab accession id, and it collided with an MRN at another clinic. Now we pick the PID-3 repetition whose CX.4 assigning authority matches the sending clinic, and reply AE if none is present. 37 results reassigned.', { files: [`${PROC}/oru/OruHandler.kt`], tags: ['mpi', 'hl7'] }],
    `M ${PROC}/oru/OruHandler.kt | select PID-3 by CX.4 assigning authority`,
    ['cx4', 'K', 'PID-3 is a repeating CX field; identifiers are only unique together with CX.4 (assigning authority) and CX.5 (identifier type code: MR, PI, AN). Never key on CX.1 alone.', { tags: ['hl7', 'identifiers'] }],
    '$ ./gradlew :services:processor:test | 52 passed',
    'M scripts/reassign_results_20260603.sql | moves 37 lab_results rows',
    '$ psql -d carebridge -f scripts/reassign_results_20260603.sql | UPDATE 37',
  ]},
  // s11 — duplicate patient bug #1 (race)
  { start: '2026-06-05T10:20', items: [
    '$ psql -d carebridge -c "select system, value, count(*) from patient_identifiers group by 1, 2 having count(*) > 1" | 19 rows',
    ['racedup', 'X', 'Duplicate patients were created when an A04 and an A08 for the same new MRN were consumed in parallel (4 consumers, prefetch 10): both missed the lookup and both inserted. Fixed with pg_advisory_xact_lock(hashtext(authority || mrn)) around match-or-create plus a unique constraint on patient_identifiers(system, value).', { files: [`${PROC}/mpi/MatchOrCreate.kt`], tags: ['mpi', 'race-condition'] }],
    `M ${PROC}/mpi/MatchOrCreate.kt | advisory xact lock`,
    'M db/migrations/V202606051030__unique_patient_identifiers.sql',
    '$ ./gradlew flywayMigrate | ERROR: could not create unique index "ux_patient_identifiers" Key (system, value) is duplicated',
    '$ psql -d carebridge -f scripts/merge_dup_identifiers.sql | merged 19 pairs',
    '$ ./gradlew flywayMigrate | Successfully applied 1 migration',
    ['noh2', 'P', 'User wants integration tests on Testcontainers postgres:16 only; H2 is banned from the test classpath because it serialises writes and hid the duplicate-creation race.', { tags: ['testing'] }],
    'M services/processor/src/test/kotlin/org/carebridge/processor/mpi/MatchOrCreateRaceTest.kt | 8 coroutines, Testcontainers',
    '$ ./gradlew :services:processor:test --tests "*RaceTest*" | 3 passed',
  ]},
  // s12 — poison message (RabbitMQ era) + audit trail
  { start: '2026-06-09T09:00', items: [
    '$ kubectl -n carebridge exec rabbitmq-0 -- rabbitmqctl list_queues name messages | hl7.inbound 48213',
    ['poison', 'X', 'Processor pegged at 100% CPU and hl7.inbound backed up to 48k: an ORU with OBX-2 = NM and OBX-5 = "<5" threw NumberFormatException, the consumer nacked with requeue=true and the same message looped forever. Numeric parsing now keeps comparator values ("<5", ">1000") as comparator + number, and unexpected exceptions nack without requeue to the hl7.inbound.dlx dead-letter exchange.', { files: [`${PROC}/oru/ObxValueParser.kt`], tags: ['rabbitmq', 'dead-letter'] }],
    `M ${PROC}/oru/ObxValueParser.kt | comparator support`,
    'M deploy/helm/rabbitmq/definitions.json | x-dead-letter-exchange hl7.inbound.dlx',
    ['auditdb', 'D', 'HIPAA audit trail is an append-only audit_events table in the same Postgres, written in the same transaction as the PHI access; the app role has INSERT only (no UPDATE/DELETE).', { reason: 'an audit row cannot be lost if the read commits', tags: ['hipaa', 'audit'] }],
    ['loganalytics', 'R', 'Using Azure Monitor / Log Analytics as the sole audit store was rejected: multi-year retention there is expensive, entries arrive minutes late, and we could not join audit rows with patients for accounting-of-disclosures reports.', { alternative: 'audit_events table in Postgres' }],
    ['retention', 'K', 'HIPAA requires keeping audit and policy documentation for 6 years (45 CFR 164.316(b)(2)); audit_events partitions older than 72 months are detached and archived to immutable Blob Storage instead of dropped.', { tags: ['hipaa', 'retention'] }],
    'M db/migrations/V202606091000__create_audit_events.sql | PARTITION BY RANGE (occurred_at)',
    'M libs/audit/src/main/kotlin/org/carebridge/audit/AuditLogger.kt',
  ]},
  // s13 — Angular admin UI
  { start: '2026-06-11T13:30', items: [
    '$ npx @angular/cli@18 new admin --standalone --style=scss --routing | created web/admin',
    ['angular', 'D', 'Admin UI is Angular 18 with standalone components, signals for state and Angular Material; it talks only to services/admin-api, never to the FHIR API.', { files: ['web/admin/src/app/app.config.ts'] }],
    ['ngrxrej', 'R', 'NgRx store was proposed for admin state but rejected: the UI is mostly forms and tables over REST, and NgRx boilerplate (actions, reducers, effects) outweighs the benefit; signal-based services instead.', { alternative: 'signal-based services' }],
    ['onpush', 'P', 'User wants ChangeDetectionStrategy.OnPush on every component, strictTemplates on, and no `any` in the Angular code.', { tags: ['angular', 'style'] }],
    'M web/admin/src/app/app.config.ts | provideMsalInstance, provideAnimations',
    ['msal', 'D', 'Admin sign-in uses Microsoft Entra ID via @azure/msal-angular (auth code + PKCE); admin-api validates the Entra access token and maps app roles Admin, InterfaceAnalyst, MpiReviewer.', { tags: ['auth'] }],
    'M web/admin/src/app/core/auth/msal.config.ts',
    '$ npx ng build --configuration production | initial bundle 612 kB',
  ]},
  // s14 — probabilistic MPI (supersedes deterministic demographics rule)
  { start: '2026-06-15T09:20', items: [
    `E ${MPI}/DeterministicMatcher.kt`,
    ['mpiprob', 'D', 'MPI replaces the deterministic demographic rule with Fellegi-Sunter style weighted scoring: Jaro-Winkler on first and last name, DOB with transposition credit, phone, normalised address, SSN last 4. Pairs scoring >= 0.90 auto-link, 0.75–0.90 go to review, below that a new patient is created.', { reason: 'deterministic rule missed typos and maiden-name changes', files: [`${MPI}/ProbabilisticMatcher.kt`] }],
    ['soundex', 'R', 'Tried Soundex on last names as the fuzzy name comparison: too many false candidates with Hispanic compound surnames (Garcia Lopez vs Garcia) and it ignores first names entirely. Dropped in favour of Jaro-Winkler per name part.', { alternative: 'Jaro-Winkler' }],
    `M ${MPI}/ProbabilisticMatcher.kt`,
    `M ${MPI}/Blocking.kt | blocking keys: dob, phone last 4, first 3 letters of last name`,
    '$ ./gradlew :libs:mpi:test | 41 passed',
    '$ ./gradlew :tools:mpi-eval:run --args="--truth samples/mpi/labelled_pairs.csv" | precision 0.991 recall 0.947',
    ['mpistep2', 'PS', 'MPI step 2 done: probabilistic matcher evaluated on 4,800 hand-labelled pairs, precision 0.991 / recall 0.947 at the 0.90 cut-off.'],
  ]},
  // s15 — AKS
  { start: '2026-06-17T10:00', items: [
    ['aks', 'D', 'Production runs on AKS (Azure CNI overlay, 3 node pools) in East US 2; each service ships as a Helm chart under deploy/helm, released from GitHub Actions with helm upgrade --atomic.', { tags: ['azure', 'deploy'] }],
    'M deploy/helm/carebridge/templates/ingest-service.yaml | type LoadBalancer, internal',
    ['ilb', 'K', 'MLLP is raw TCP, so it cannot go through Application Gateway; ingest is exposed with a Service of type LoadBalancer annotated service.beta.kubernetes.io/azure-load-balancer-internal: "true", reachable from the lab over the site-to-site VPN.', { files: ['deploy/helm/carebridge/templates/ingest-service.yaml'] }],
    '$ helm upgrade --install carebridge deploy/helm/carebridge -n carebridge --atomic | revision 1 deployed',
    '$ kubectl -n carebridge get svc ingest-mllp | EXTERNAL-IP 10.40.2.15',
    'M .github/workflows/deploy.yml | az aks get-credentials, helm upgrade --atomic',
    'E deploy/helm/carebridge/values-prod.yaml',
    '$ kubectl -n carebridge get pods | 14/14 Running',
  ]},
  // s16 — idle resets + Key Vault CSI
  { start: '2026-06-19T09:40', items: [
    '$ kubectl -n carebridge logs deploy/ingest --since=6h | NativeIoException: recvAddress(..) failed: Connection reset by peer',
    ['idlereset', 'X', 'Meridian MLLP connections were reset after quiet periods overnight: Azure Load Balancer drops TCP flows after its 4 minute idle timeout without telling either side, and the LIS only noticed on its next send. Enabled SO_KEEPALIVE with TCP_KEEPIDLE 120 s on the Netty child channel and raised the LB idle timeout to 30 minutes.', { files: [`${INGEST}/mllp/MllpServer.kt`], tags: ['mllp', 'azure', 'networking'] }],
    `M ${INGEST}/mllp/MllpServer.kt | EpollChannelOption.TCP_KEEPIDLE 120`,
    'M deploy/helm/carebridge/templates/ingest-service.yaml | azure-load-balancer-tcp-idle-timeout: "30"',
    ['kvcsi', 'D', 'Secrets come from Azure Key Vault through the Secrets Store CSI driver with AKS workload identity; no secrets in Helm values or GitHub Actions variables, only the OIDC federation.', { tags: ['azure', 'keyvault', 'secrets'] }],
    ['wifed', 'K', 'Workload identity only works when the federated credential subject is exactly system:serviceaccount:carebridge:<serviceaccount> and the pod has label azure.workload.identity/use: "true"; a namespace typo gives AADSTS70021 No matching federated identity record found.', { tags: ['azure', 'workload-identity'] }],
    '$ az identity federated-credential create --name fc-ingest --identity-name id-carebridge-ingest --issuer $AKS_OIDC_ISSUER --subject system:serviceaccount:carebridge:ingest | created',
    'M deploy/helm/carebridge/templates/secretproviderclass.yaml',
    '$ kubectl -n carebridge rollout restart deploy/ingest | restarted',
  ]},
  // s17 — switch to application-level envelope encryption (supersedes pgcrypto)
  { start: '2026-06-23T10:30', items: [
    'E docs/security/pentest-2026-06-findings.md | finding CB-03: key visible in server logs',
    ['keyleak', 'K', 'Pentest finding CB-03: with pgaudit and log_min_duration_statement enabled, statements calling pgp_sym_decrypt(ssn, $key) were logged with their bound parameters, so the PHI key showed up in the Postgres server logs and in Log Analytics.', { tags: ['security', 'pgcrypto'] }],
    ['envelope', 'D', 'Field-level PHI encryption moves into the application: AES-256-GCM via Google Tink in libs/phi-crypto, one data key per table wrapped by an RSA-HSM key in Key Vault (envelope encryption). Postgres only ever sees ciphertext. Replaces the pgcrypto approach.', { reason: 'keys never reach the database or its logs', files: [`${CRYPTO}/FieldCipher.kt`], tags: ['phi', 'encryption', 'keyvault'] }],
    ['blindidx', 'D', 'Exact-match search on encrypted fields (SSN last 4, phone) uses a blind index: HMAC-SHA256 with a separate Key Vault secret, stored in *_bidx columns.', { files: ['db/migrations/V202606231100__add_blind_indexes.sql'] }],
    `M ${CRYPTO}/FieldCipher.kt | Tink AEAD, associated data = table:column:row id`,
    'M db/migrations/V202606231100__add_blind_indexes.sql',
    '$ az keyvault key create --vault-name kv-carebridge-prod --name phi-kek --kty RSA-HSM --size 3072 | created',
    '$ ./gradlew :libs:phi-crypto:test | 27 passed',
  ]},
  // s18 — Key Vault throttling during re-encryption
  { start: '2026-06-25T08:30', items: [
    '$ ./gradlew :tools:reencrypt:run --args="--table patients --batch 500" | failed at batch 212: 429 Too Many Requests',
    ['kvthrottle', 'X', 'Re-encryption backfill died at batch 212 with Key Vault 429 Too Many Requests: FieldCipher called unwrapKey for every row. Unwrapped data keys are now cached in memory (Caffeine, 10 min TTL, never persisted), cutting Key Vault calls from ~40k to a handful per run.', { files: [`${CRYPTO}/KeyCache.kt`], tags: ['keyvault', 'throttling'] }],
    `M ${CRYPTO}/KeyCache.kt`,
    '$ ./gradlew :tools:reencrypt:run --args="--table patients --batch 500" | 412,880 rows re-encrypted in 18m',
    ['reencdone', 'T', 'PHI re-encryption finished: patients, patient_contacts and guarantors re-encrypted with Tink; pgcrypto columns dropped and PHI_KEY removed from every environment.'],
    'M db/migrations/V202606251500__drop_pgcrypto_columns.sql',
    '$ ./gradlew flywayMigrate | Successfully applied 1 migration',
    `E ${PROC}/repo/PatientRepository.kt`,
  ]},
  // s19 — encoding problem #2 (HL7 escape sequences)
  { start: '2026-06-29T13:10', items: [
    `E ${FHIR}/ObservationProvider.kt`,
    ['escapes', 'X', 'Portal showed result comments like "HDL \\T\\ LDL panel" and "\\.br\\" literally: OBX-5 text (TX/FT) was stored with HL7 escape sequences still in it. The processor now unescapes with HAPI EncodingCharacters + Escape.unescape and turns \\.br\\ into newlines before storing.', { files: [`${PROC}/oru/ObxValueParser.kt`], tags: ['hl7', 'encoding', 'portal'] }],
    `M ${PROC}/oru/ObxValueParser.kt | Escape.unescape for TX, FT, ST`,
    ['escapeseq', 'K', 'HL7 v2 escape sequences: \\F\\ field separator (|), \\S\\ component (^), \\T\\ subcomponent (&), \\R\\ repetition (~), \\E\\ escape (\\), plus formatting commands like \\.br\\ in FT. They must be undone on read and re-applied when we generate ACKs or outbound messages.', { tags: ['hl7', 'encoding'] }],
    '$ psql -d carebridge -f scripts/unescape_obx_comments.sql | UPDATE 2904',
    `M ${FHIR}/ObservationProvider.kt | valueString from unescaped text`,
    '$ ./gradlew :services:processor:test | 66 passed',
  ]},
  // s20 — SMS reminders plan
  { start: '2026-07-01T10:00', items: [
    ['smsplan', 'PL', 'Appointment reminder plan: (1) pick an SMS provider and register the number, (2) scheduler job that picks upcoming appointments from the EHR SIU^S12 feed, (3) opt-in/opt-out handling with STOP keywords recorded as consent, (4) English and Spanish templates.', { tags: ['reminders', 'sms'] }],
    ['twilio', 'D', 'Reminders go through Twilio Programmable Messaging with a Messaging Service and a verified toll-free number; the signed BAA with Twilio is on file.', { reason: 'BAA available, delivery status callbacks', tags: ['sms'] }],
    ['acsrej', 'R', 'Azure Communication Services SMS was the other candidate; rejected because toll-free verification had a 6–8 week queue at the time and it lacked the opt-out keyword management Twilio Messaging Services give us.', { alternative: 'Twilio' }],
    ['remind24', 'D', 'Send one SMS reminder 24 hours before each appointment.', { tags: ['reminders'] }],
    `M ${REM}/TwilioSender.kt`,
    '$ ./gradlew :services:reminders:test | 12 passed',
    '$ twilio api:messaging:v1:services:create --friendly-name MG-carebridge --status-callback https://api.carebridge.health/twilio/status | MG created',
  ]},
  // s21 — scheduler + timezone bug
  { start: '2026-07-06T09:30', items: [
    ['dbsched', 'D', 'Reminder scheduling runs on db-scheduler (kagkarlsson) backed by Postgres: one recurring task every 5 minutes selects due reminders with FOR UPDATE SKIP LOCKED, so any replica can run it.', { files: [`${REM}/ReminderTask.kt`] }],
    ['cronjobrej', 'R', 'Rejected a Kubernetes CronJob for reminders: each run cold-starts a JVM (~9 s) and failed runs are invisible without extra monitoring. Quartz was skipped too because its JDBC job store wants 11 tables of its own.', { alternative: 'db-scheduler' }],
    `M ${REM}/ReminderTask.kt`,
    '$ kubectl -n carebridge logs deploy/reminders --since=12h | sent 214 reminders between 03:00 and 03:10 local',
    ['tzbug', 'X', "Reminders for the Tucson clinic went out at 3 AM local: the send window was computed from the server's UTC clock with the clinic zone hard-coded to America/Denver, but America/Phoenix does not observe DST. Send windows now use each clinic's IANA zone from clinics.time_zone and are clamped to 08:00–21:00 local.", { files: [`${REM}/ReminderWindow.kt`], tags: ['timezone', 'reminders'] }],
    `M ${REM}/ReminderWindow.kt | ZoneId.of(clinic.timeZone), clamp 08:00-21:00`,
    ['tcpa', 'K', 'TCPA and carrier rules: healthcare reminder texts are allowed without marketing consent, but only to numbers the patient gave us; they must identify the clinic, honour STOP immediately, and should be sent between 8 AM and 9 PM recipient local time.', { tags: ['sms', 'compliance'] }],
    ['smsstep2', 'PS', 'Reminder step 2 done: db-scheduler task reads appointments from SIU^S12/S14/S15 messages and queues reminders; cancellations (S15) delete pending ones.'],
    '$ ./gradlew :services:reminders:test | 19 passed',
  ]},
  // s22 — RabbitMQ outage, switch to Service Bus (supersedes RabbitMQ)
  { start: '2026-07-08T10:15', items: [
    'E docs/incidents/2026-07-07-rabbitmq-quorum.md',
    ['rabbitoutage', 'K', 'Incident 2026-07-07: an AKS node image upgrade drained two of three RabbitMQ pods at once, the hl7.inbound quorum queue lost its majority and ingest refused messages for 40 minutes; Meridian queued on their side, but ADT updates arrived out of order afterwards.', { tags: ['rabbitmq', 'incident'] }],
    ['servicebus', 'D', 'Move the interface queue from self-hosted RabbitMQ to Azure Service Bus Premium (1 messaging unit): managed HA across zones, native dead-letter subqueues, sessions for per-patient ordering, and no broker to patch on AKS. Supersedes the RabbitMQ decision.', { reason: 'operational burden and the 2026-07-07 outage', alternative: 'RabbitMQ with a PodDisruptionBudget', tags: ['queue', 'azure'] }],
    ['sbplan', 'PL', 'Queue migration plan: (1) Terraform the namespace and queues, (2) publisher abstraction with both backends behind a flag, (3) dual-run in staging for a week comparing counts, (4) cut over ingest then processor, (5) drain and decommission RabbitMQ.', { tags: ['queue', 'migration'] }],
    'M infra/terraform/servicebus.tf | azurerm_servicebus_namespace sku Premium, queue hl7-inbound requires_session',
    '$ terraform -chdir=infra/terraform apply -target=azurerm_servicebus_namespace.main | 3 added',
    ['sbstep1', 'PS', 'Queue migration step 1 done: sb-carebridge-prod namespace with hl7-inbound (sessions on) and reminders-outbound queues.'],
    'E infra/terraform/variables.tf',
  ]},
  // s23 — Service Bus sessions + message size / claim check
  { start: '2026-07-10T09:00', items: [
    `M ${QUEUE}/ServiceBusPublisher.kt | sessionId = authority:mrn`,
    ['sbsession', 'K', 'Service Bus sessions give FIFO per session id; we set sessionId to assigning authority + MRN so ADT and ORU for one patient are processed in order while different patients run in parallel (processor maxConcurrentSessions 16).', { tags: ['servicebus', 'ordering'] }],
    '$ ./gradlew :services:processor:test | 1 failed: MessageSizeExceededException',
    ['sbsize', 'X', 'Publishing failed with MessageSizeExceededException for ORU messages carrying embedded PDF reports (OBX-5 ED, base64) of up to 1.2 MB; the entity max size was at the 256 KB default, and we did not want megabyte payloads on the hot path anyway.', { tags: ['servicebus'] }],
    ['claimcheck', 'D', 'Claim-check pattern for queue payloads: ingest writes the raw HL7 bytes to Blob Storage (container hl7-raw, immutable 7-day policy) and the queue message carries only the blob name, SHA-256 and MSH-10.', { files: [`${QUEUE}/ClaimCheck.kt`] }],
    `M ${QUEUE}/ClaimCheck.kt`,
    'M infra/terraform/storage.tf | container hl7-raw, immutability policy',
    ['sbstep2', 'PS', 'Queue migration step 2 done: QueuePublisher interface with RabbitPublisher and ServiceBusPublisher behind the QUEUE_BACKEND flag.'],
  ]},
  // s24 — retries, dead letters, STOP handling
  { start: '2026-07-14T10:40', items: [
    ['retrypolicy', 'D', 'Processor retry policy: transient failures (DB timeout, Key Vault 5xx) are abandoned and redelivered by Service Bus up to MaxDeliveryCount = 5 with scheduled backoff of 10 s, 1 min, 5 min, 30 min; validation errors go straight to the dead-letter subqueue with a reason code.', { tags: ['retries', 'dead-letter'] }],
    ['dlqreplay', 'D', 'Dead-lettered messages are listed in the admin UI (Interfaces > Dead letters) with their reason and can be replayed after a fix; replay publishes the original blob reference under a new message id.', { files: [`${ADMIN}/DeadLetterRoutes.kt`] }],
    `M ${ADMIN}/DeadLetterRoutes.kt | GET /dead-letters, POST /dead-letters/{id}/replay`,
    'M web/admin/src/app/interfaces/dead-letters/dead-letters.component.ts',
    ['maxdelivery', 'K', 'Service Bus MaxDeliveryCount defaults to 10 and counts every lock expiry too, so a processor that crashes mid-message burns deliveries; lock duration raised to 2 min so slow MPI matches do not lose their lock.', { tags: ['servicebus'] }],
    '$ az servicebus queue update -g rg-carebridge-prod --namespace-name sb-carebridge-prod -n hl7-inbound --max-delivery-count 5 --lock-duration PT2M | ok',
    ['smsstep3', 'PS', 'Reminder step 3 done: STOP/START/HELP replies from the Twilio webhook are recorded as Consent changes (category sms-reminders); opted-out numbers are skipped before sending.'],
    '$ npx ng test --watch=false | 88 specs, 0 failures',
  ]},
  // s25 — duplicate patient bug #2 (false merge of twins) + threshold change (supersedes 0.90)
  { start: '2026-07-16T09:15', items: [
    'E docs/incidents/2026-07-15-mpi-twins.md',
    ['twins', 'X', 'Twins at the Mesa clinic were auto-linked into one golden patient (score 0.93): same DOB, last name, address and phone, and first names Mateo/Matias scored 0.88 on Jaro-Winkler. Added a twin guard: equal DOB with differing first names or differing sex never auto-links, the pair goes to manual review. The bad link was undone with an unmerge and both records re-audited.', { files: [`${MPI}/TwinGuard.kt`], tags: ['mpi', 'false-merge'] }],
    `M ${MPI}/TwinGuard.kt`,
    ['threshold95', 'D', 'MPI auto-link threshold raised from 0.90 to 0.95; pairs scoring between 0.75 and 0.95 go to the manual review queue. Review volume expected to roughly double (~60/day across clinics).', { reason: 'the 2026-07-15 false merge is far worse than a duplicate', tags: ['mpi'] }],
    '$ ./gradlew :tools:mpi-eval:run --args="--truth samples/mpi/labelled_pairs.csv --threshold 0.95" | precision 0.998 recall 0.903',
    'M libs/mpi/src/main/resources/mpi.conf | autoLinkThreshold = 0.95',
    ['falsemergepref', 'P', "User's rule for MPI tuning: a false merge (two people in one record) is a safety incident, a duplicate is an inconvenience — always trade recall for precision.", { tags: ['mpi'] }],
  ]},
  // s26 — review queue + A40 merges
  { start: '2026-07-20T10:00', items: [
    'M web/admin/src/app/mpi/review-queue/review-queue.component.ts | side-by-side compare, link / not-a-match',
    ['mpistep3', 'PS', 'MPI step 3 done: review queue in the admin UI shows candidate pairs side by side with per-field weights; users with the MpiReviewer role can link or mark not-a-match, and every decision is audited.'],
    `M ${ADMIN}/MpiReviewRoutes.kt`,
    ['a40', 'K', 'ADT^A40 (merge patient, patient identifier list) carries the surviving patient in PID and the retired identifier in MRG-1; results already filed under MRG-1 must be re-pointed, and the old identifier is kept as an alias so late ORUs still match.', { tags: ['hl7', 'mpi'] }],
    `M ${PROC}/adt/A40Handler.kt`,
    '$ mllp_send --file samples/ehr/adt_a40_merge.hl7 --port 2575 staging-ingest.carebridge.internal | MSA|AA',
    ['mpistep4', 'PS', 'MPI step 4 done: A40 merges and admin-initiated unmerge both supported; unmerge restores links from patient_link_history.'],
    '$ ./gradlew :services:processor:test | 81 passed',
  ]},
  // s27 — audit search timeout (timeout #2) + partition pruning
  { start: '2026-07-22T09:40', items: [
    '$ kubectl -n carebridge logs deploy/admin-api --since=2h | ERROR: canceling statement due to statement timeout',
    ['auditprune', 'X', 'Admin UI audit search for a patient failed with "canceling statement due to statement timeout" (15 s): the query filtered only on patient_id, so Postgres scanned all 14 monthly audit_events partitions. The search now requires a date range (default last 90 days) so partition pruning applies, and each partition has an index on (patient_id, occurred_at).', { files: [`${ADMIN}/AuditSearchRoutes.kt`], tags: ['postgres', 'partitioning', 'timeout'] }],
    `M ${ADMIN}/AuditSearchRoutes.kt | from/to required`,
    'M db/migrations/V202607221000__index_audit_events_patient.sql | CREATE INDEX ON audit_events (patient_id, occurred_at)',
    ['pruning', 'K', 'Partition pruning only happens when the WHERE clause constrains the partition key (occurred_at) with constants or parameters; EXPLAIN shows "Subplans Removed: 13" when it works. An index created on the partitioned parent cascades to every partition.', { tags: ['postgres', 'partitioning'] }],
    '$ psql -d carebridge -f scripts/explain_audit_search.sql | Subplans Removed: 13, 4.2 ms',
    ['explicitaudit', 'P', 'User wants every endpoint that reads PHI to call AuditLogger.record(actor, action, patientId, purpose) explicitly in the route; no Ktor plugin or interceptor that audits implicitly, so reviewers can see the audit call in the diff.', { tags: ['audit', 'code-review'] }],
  ]},
  // s28 — reminder timing change (supersedes 24h) + encoding problem #3 (SMS UCS-2)
  { start: '2026-07-27T10:10', items: [
    'E docs/analytics/no-show-report-2026-07.md | no-show 14.1% with single 24h reminder',
    ['remind48', 'D', 'Reminders go out twice: 48 hours before (reply C to confirm, R to reschedule) and 2 hours before the appointment. Replaces the single 24-hour reminder because 24 h left front desks too little time to fill freed slots.', { reason: 'no-show report July 2026', tags: ['reminders'] }],
    `M ${REM}/ReminderPolicy.kt | offsets 48h, 2h`,
    '$ twilio api:core:messages:list --limit 50 | num_segments 3 on es-US messages',
    ['ucs2', 'X', 'Spanish reminder SMS cost three times the English: any character outside GSM-7 (á, í, ¿) switches the whole SMS to UCS-2, which allows 70 characters per segment instead of 160, so a 150-character template became 3 segments. Templates shortened to fit 2 segments and ¿ removed; accents kept.', { files: ['services/reminders/src/main/resources/templates/reminder_48h.es.txt'], tags: ['sms', 'encoding'] }],
    'M services/reminders/src/main/resources/templates/reminder_48h.es.txt',
    ['humantrans', 'P', 'User wants es-US templates written or checked by bilingual front-desk staff at the clinics; no machine-translated copy ships.', { tags: ['reminders', 'i18n'] }],
    ['smsstep4', 'PS', 'Reminder step 4 done: English and Spanish templates for the 48 h and 2 h reminders, language picked from PID-15 primary language.'],
  ]},
  // s29 — certification plan
  { start: '2026-07-29T09:00', items: [
    'E docs/interfaces/meridian-certification-script-v2.xlsx | 42 scenarios',
    ['certplan', 'PL', 'Meridian Labs interface certification plan: (1) connectivity over the IPsec VPN to 10.40.2.15:2575, (2) run their 42-scenario test script in staging (ORU normal/abnormal/corrected, cancelled orders, A08 updates, A40 merges), (3) fix rejections, (4) sign-off call and production cut-over window.', { tags: ['certification', 'meridian'] }],
    '$ az network vpn-connection show -g rg-carebridge-net -n cn-meridian --query connectionStatus | "Connected"',
    '$ kubectl -n carebridge-staging logs deploy/ingest --since=30m | connection from 172.20.14.8 (Meridian test engine), 3 ACKs sent',
    '$ mllp_send --file samples/meridian/cert/scenario_07_corrected.hl7 --port 2575 staging-ingest.carebridge.internal | MSA|AA',
    ['corrected', 'K', 'Corrected results arrive with OBX-11 = C and the same filler order number (OBR-3); we replace the prior value, keep it in lab_result_history, and the portal shows a corrected badge. F is final, P preliminary.', { tags: ['hl7', 'oru'] }],
    `M ${PROC}/oru/OruHandler.kt | OBX-11 C replaces prior result, history row`,
    '$ ./gradlew :services:processor:test | 88 passed',
  ]},
  // s30 — ACK rejections in certification
  { start: '2026-08-03T10:00', items: [
    'E docs/interfaces/meridian-cert-run1-results.md | 9 of 42 scenarios failed with AR',
    ['certstep2', 'PS', 'Certification step 2 done: first full run of the 42-scenario script; 33 passed, 9 came back rejected by their test engine.'],
    ['ackver', 'X', "Meridian's test engine rejected 9 of 42 certification scenarios: our ACK always declared MSH-12 = 2.5.1 and MSA-2 echoed our own control id instead of the inbound MSH-10. ACKs are now built with HAPI generateACK() from the inbound message, so version, control id and swapped sender/receiver fields match.", { files: [`${INGEST}/mllp/AckBuilder.kt`], tags: ['certification', 'ack'] }],
    `M ${INGEST}/mllp/AckBuilder.kt | generateACK(inbound)`,
    '$ ./gradlew :services:ingest:test | 38 passed',
    '$ mllp_send --file samples/meridian/cert/run2_all.hl7 --port 2575 staging-ingest.carebridge.internal | 42 x MSA|AA',
    ['certstep3', 'PS', 'Certification step 3 done: rerun of all 42 scenarios passed, including the 9 rejected in run 1.'],
  ]},
  // s31 — SNOMED / ICD-10
  { start: '2026-08-06T09:30', items: [
    ['snomedicd', 'D', 'Problem list and encounter diagnoses are stored as SNOMED CT concepts; ICD-10-CM codes for claims are derived with the NLM SNOMED CT to ICD-10-CM map rather than asking clinicians to pick both.', { tags: ['snomed', 'icd10', 'terminology'] }],
    ['ifarules', 'K', "The NLM SNOMED to ICD-10-CM map is rule-based: map groups carry IFA rules that depend on age, sex or co-existing conditions (e.g. IFA 445518008 Age at onset of clinical finding). We evaluate them with the patient's age and sex and fall back to the OTHERWISE TRUE row.", { tags: ['snomed', 'icd10'] }],
    ['crosswalk', 'R', 'A hand-maintained SNOMED to ICD-10 crosswalk spreadsheet was rejected: informatics estimated 9,000 rows to keep current, and it would silently drift from the yearly ICD-10-CM update each October.', { alternative: 'NLM map' }],
    '$ ./gradlew :tools:snomed-loader:run --args="--release SnomedCT_USEditionRF2_PRODUCTION_20260301" | 372,104 concepts, 129,880 map rows',
    `M ${TERM}/IcdMapper.kt`,
    'M db/migrations/V202608061000__create_snomed_icd_map.sql',
    '$ ./gradlew :libs:terminology:test | 47 passed',
  ]},
  // s32 — monitoring / on-call
  { start: '2026-08-11T13:00', items: [
    ['silentalert', 'D', 'Interface monitoring: an Azure Monitor alert pages on-call through PagerDuty when a lab interface has received no message for 30 minutes between 06:00 and 20:00 clinic time, or when hl7-inbound dead letters exceed 20 in 15 minutes.', { tags: ['monitoring', 'on-call'] }],
    'M infra/terraform/alerts.tf | azurerm_monitor_scheduled_query_rules_alert_v2 meridian_silence',
    ['runbooks', 'P', 'User wants every alert to carry a runbook link (docs/runbooks/<alert-name>.md) in its description; no alert gets merged without one.', { tags: ['on-call'] }],
    'M docs/runbooks/meridian-silence.md',
    `M ${INGEST}/metrics/InterfaceMetrics.kt | last_message_received_timestamp per sender`,
    '$ terraform -chdir=infra/terraform apply | 4 added, 1 changed',
    'E docs/runbooks/README.md',
  ]},
  // s33 — portal timeout (timeout #3) + consent
  { start: '2026-08-17T10:20', items: [
    '$ kubectl -n carebridge logs deploy/fhir-api --since=1d | 504 Gateway Timeout on GET /fhir/Observation after 31.2s',
    ['obs504', 'X', 'Portal Observation searches returned 504 from Application Gateway (30 s backend timeout) for patients with more than 20k observations: the search sorted by effective_at with no supporting index and no _count, building a single huge Bundle. Added an index on observations(patient_id, effective_at DESC) and a default _count of 50 with next links.', { files: [`${FHIR}/ObservationProvider.kt`], tags: ['fhir', 'timeout', 'performance'] }],
    `M ${FHIR}/ObservationProvider.kt | default _count 50, offset paging`,
    'M db/migrations/V202608171100__index_observations_patient_effective.sql',
    '$ curl -s -o /dev/null -w "%{time_total}" "https://portal-api.carebridge.health/fhir/Observation?patient=81233" | 0.41s',
    ['consent', 'D', "Portal access to a patient's data is checked against FHIR Consent resources; results from sensitive panels (HIV, substance use under 42 CFR Part 2) carry a security label and are hidden from proxies (parents, caregivers) unless consent grants them.", { tags: ['consent', 'portal'] }],
    `M ${FHIR}/ConsentInterceptor.kt | security label filtering for proxies`,
  ]},
  // s34 — certification go-live + queue cut-over
  { start: '2026-08-24T09:00', items: [
    ['certstep4', 'PS', 'Certification step 4 done: sign-off from Meridian on 2026-08-21; production cut-over completed in the Saturday 06:00–08:00 window with no lost messages.'],
    ['certdone', 'T', 'Meridian Labs interface is live in production for all 11 clinics: ORU results and ADT feeds flowing, about 9,400 messages/day.'],
    '$ az servicebus queue show -g rg-carebridge-prod --namespace-name sb-carebridge-prod -n hl7-inbound --query countDetails | activeMessageCount 3',
    ['sbstep3', 'PS', 'Queue migration steps 3 and 4 done: a week of dual-run in staging matched counts exactly; ingest and processor cut over to Service Bus in production on 2026-08-22.'],
    'M deploy/helm/carebridge/values-prod.yaml | QUEUE_BACKEND=servicebus',
    `E ${PROC}/Main.kt`,
    '$ helm upgrade carebridge deploy/helm/carebridge -n carebridge -f deploy/helm/carebridge/values-prod.yaml --atomic | revision 23 deployed',
  ]},
  // s35 — lock renewal duplicates + RabbitMQ decommission
  { start: '2026-08-31T10:00', items: [
    '$ kubectl -n carebridge exec rabbitmq-0 -- rabbitmqctl list_queues name messages | hl7.inbound 0',
    ['lockrenew', 'X', 'Some ORU batches were processed twice after the cut-over: 300-OBX panels took longer than the 2 min lock, the Service Bus lock expired (MessageLockLostException) and another pod got the message. Set maxAutoLockRenewDuration to 10 min on the ServiceBusProcessorClient and made result upserts idempotent on (filler_order_number, obx_set_id).', { files: [`${PROC}/ServiceBusConsumer.kt`], tags: ['servicebus', 'idempotency'] }],
    `M ${PROC}/ServiceBusConsumer.kt | maxAutoLockRenewDuration 10m`,
    '$ helm uninstall rabbitmq -n carebridge | release "rabbitmq" uninstalled',
    ['sbdone', 'T', 'Queue migration complete: RabbitMQ uninstalled from AKS, its PVCs deleted after exporting definitions, and the RabbitPublisher code path removed.'],
    `M ${QUEUE}/RabbitPublisher.kt | deleted`,
    ['branchname', 'P', 'User wants branch names as <type>/<ticket>-<slug> (e.g. fix/CB-412-lock-renewal) and squash merges with Conventional Commit titles.', { tags: ['git'] }],
    '$ git push -u origin fix/CB-412-lock-renewal | pushed',
  ]},
  // s36 — wrap-up / Q4
  { start: '2026-09-08T09:30', items: [
    'E docs/roadmap/2026-q4.md',
    ['q4plan', 'PL', 'Q4 plan: (1) onboard NorthPath Diagnostics as the second lab using the same interface templates, (2) FHIR Bulk Data $export for the state immunization registry, (3) automate yearly PHI key rotation, (4) HITRUST readiness assessment.', { tags: ['roadmap'] }],
    ['kvrotate', 'K', 'A Key Vault rotation policy can auto-rotate phi-kek every 365 days; data keys wrapped with an older key version still unwrap because Key Vault keeps prior versions, so rewrapping can run lazily.', { tags: ['keyvault', 'encryption'] }],
    '$ az keyvault key rotation-policy update --vault-name kv-carebridge-prod -n phi-kek --value @infra/keyvault/rotation-policy.json | ok',
    'M infra/keyvault/rotation-policy.json | P1Y rotate, notify 30d before expiry',
    'E docs/interfaces/northpath-spec-2.3.1.pdf | HL7 2.3.1, accession in PID-2',
    '$ ./gradlew build | BUILD SUCCESSFUL in 3m 12s',
  ]},
];

// [query, [keys], paraphrase]
const queries = [
  // lexical / partially lexical
  ['why did we stop using RabbitMQ?', ['servicebus', 'rabbitoutage'], false],
  ['what was the fix for the lab results landing on the wrong patient?', ['pid3', 'cx4'], false],
  ['did we already try fuzzy matching on names?', ['soundex'], false],
  ['how does the user want migrations named?', ['flywaynaming'], false],
  ['what is the current MPI auto-link threshold?', ['threshold95'], false],
  ['HL7 escape sequences like \\T\\ showing up in the portal', ['escapes', 'escapeseq'], false],
  ['why not just run the HAPI FHIR JPA server?', ['jparej'], false],
  ['Key Vault 429 errors during the re-encryption backfill', ['kvthrottle'], false],
  ['why did Meridian reject our ACKs during certification?', ['ackver'], false],
  ['audit search dies with a statement timeout', ['auditprune', 'pruning'], false],
  ['how do we map SNOMED problems to ICD-10 codes for claims?', ['snomedicd', 'ifarules'], false],
  ['processor stuck at 100% CPU requeueing the same message forever', ['poison'], false],
  ['when does on-call get paged for an interface that goes silent?', ['silentalert'], false],
  ['how do pods read secrets from Key Vault?', ['kvcsi', 'wifed'], false],
  ['ORU batches processed twice after the Service Bus cut-over', ['lockrenew'], false],
  ['did we always send the appointment reminder 24 hours before?', ['remind48', 'remind24'], false],
  ['why did we drop pgcrypto?', ['envelope', 'keyleak'], false],
  ['how should I name the branch for this fix?', ['branchname'], false],
  ['what steps are left for the Meridian interface certification?', ['certplan', 'certstep3'], false],
  ['what is on the roadmap after go-live, NorthPath onboarding?', ['q4plan'], false],
  // paraphrase: no shared content word with the relevant events
  ['why were accented surnames coming out garbled from the reference lab?', ['latin1'], true],
  ['why did siblings born on the same day end up fused into one person?', ['twins'], true],
  ['how do we currently scramble identifying details before they hit the disk?', ['envelope'], true],
  ['why was the pathology system re-transmitting everything at first?', ['acktimeout'], true],
  ['how far ahead of a visit do we text folks these days?', ['remind48'], true],
  ['why did the translated notifications end up so pricey?', ['ucs2'], true],
  ["can I dump someone's medical details into the debug output while troubleshooting?", ['nophilogs'], true],
  ['did we consider querying a remote vocabulary service on the fly for each incoming observation?', ['termserver'], true],
  ['why did the web app for members hang on people with years of bloodwork?', ['obs504'], true],
  ['what pub/sub backbone are we on these days?', ['servicebus', 'sbdone'], true],
  ['what prevents simultaneous workers from minting the same person twice?', ['racedup'], true],
  ['how long do we hang on to the history of who viewed charts?', ['retention'], true],
  ['which front-end framework powers the back-office screens?', ['angular'], true],
  ["why did the lab's socket keep getting cut during lulls?", ['idlereset'], true],
  ['how do we get bulky attachments past the broker?', ['claimcheck', 'sbsize'], true],
  ['why did folks in the desert southwest get pinged in the middle of the night?', ['tzbug'], true],
  ['should the who-opened-this-chart tracking happen automatically in middleware, or by hand in each handler?', ['explicitaudit'], true],
  ['which error counts as worse when resolving identities — wrongly fusing individuals or leaving copies around?', ['falsemergepref'], true],
  ['is auto-generated localisation fine for what we send out?', ['humantrans'], true],
  ['where do I go to retry inbound items that got parked?', ['dlqreplay'], true],
];

const out = build({ project: 'carebridge', outDir: dirname(fileURLToPath(import.meta.url)), sessions, queries, seed: 29 });
console.log(`carebridge: ${out.events.length} events, ${out.queries.length} queries`);
