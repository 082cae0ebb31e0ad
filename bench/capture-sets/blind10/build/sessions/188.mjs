import { U, A, think, say, Read, Edit, Bash, Grep } from '../gen.mjs';

const DRIVER = `#include "imu_icm42688.h"
#include "FreeRTOS.h"
#include "semphr.h"
#include "spi.h"

#define IMU_FRAME_LEN 14u

static SemaphoreHandle_t s_rx_done;
static volatile uint8_t s_rx[IMU_FRAME_LEN];
static const uint8_t s_tx[IMU_FRAME_LEN] = { 0x1Du | 0x80u }; /* burst read from TEMP_DATA1 */

void imu_init(void)
{
	s_rx_done = xSemaphoreCreateBinary();
	configASSERT(s_rx_done != NULL);
}

bool imu_read_frame(imu_sample_t *out)
{
	HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_RESET);
	if (HAL_SPI_TransmitReceive_DMA(&hspi2, (uint8_t *)s_tx, (uint8_t *)s_rx, IMU_FRAME_LEN) != HAL_OK) {
		HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
		return false;
	}
	if (xSemaphoreTake(s_rx_done, pdMS_TO_TICKS(5)) != pdTRUE) {
		return false;
	}
	imu_unpack(s_rx, out);
	return true;
}

void HAL_SPI_TxRxCpltCallback(SPI_HandleTypeDef *hspi)
{
	if (hspi != &hspi2) {
		return;
	}
	HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
	BaseType_t woken = pdFALSE;
	xSemaphoreGiveFromISR(s_rx_done, &woken);
	portYIELD_FROM_ISR(woken);
}
`;
const IOC = `NVIC.DMA1_Stream2_IRQn=true\\:5\\:0\\:false\\:false\\:true\\:true\\:false\\:true\\:true
NVIC.DMA1_Stream3_IRQn=true\\:5\\:0\\:false\\:false\\:true\\:true\\:false\\:true\\:true
NVIC.ForceEnableDMAVector=true
NVIC.PendSV_IRQn=true\\:15\\:0\\:false\\:false\\:false\\:true\\:false\\:false\\:false
NVIC.PriorityGroup=NVIC_PRIORITYGROUP_4
NVIC.SPI2_IRQn=true\\:1\\:0\\:false\\:false\\:true\\:true\\:true\\:true\\:true
NVIC.SVCall_IRQn=true\\:0\\:0\\:false\\:false\\:false\\:false\\:false\\:false\\:false
NVIC.SysTick_IRQn=true\\:15\\:0\\:false\\:false\\:true\\:false\\:true\\:false\\:false
`;
const SPI = `  /* USER CODE END SPI2_MspInit 0 */
    /* SPI2 clock enable */
    __HAL_RCC_SPI2_CLK_ENABLE();

    __HAL_RCC_GPIOB_CLK_ENABLE();
    /**SPI2 GPIO Configuration
    PB13     ------> SPI2_SCK
    PB14     ------> SPI2_MISO
    PB15     ------> SPI2_MOSI
    */
    GPIO_InitStruct.Pin = GPIO_PIN_13|GPIO_PIN_14|GPIO_PIN_15;
    GPIO_InitStruct.Mode = GPIO_MODE_AF_PP;
    GPIO_InitStruct.Pull = GPIO_NOPULL;
    GPIO_InitStruct.Speed = GPIO_SPEED_FREQ_VERY_HIGH;
    GPIO_InitStruct.Alternate = GPIO_AF5_SPI2;
    HAL_GPIO_Init(GPIOB, &GPIO_InitStruct);

    /* SPI2 interrupt Init */
    HAL_NVIC_SetPriority(SPI2_IRQn, 1, 0);
    HAL_NVIC_EnableIRQ(SPI2_IRQn);
  /* USER CODE BEGIN SPI2_MspInit 1 */
`;
const MAKEFILE = `TARGET = imu-board
BUILD_DIR = build
MCU = -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard

C_DEFS = -DUSE_HAL_DRIVER -DSTM32H743xx
OPT = -Og -g3
CFLAGS = $(MCU) $(C_DEFS) $(C_INCLUDES) $(OPT) -Wall -Wextra -Werror -fdata-sections -ffunction-sections

# artifact upload for CI (make upload)
UPLOAD_URL ?= https://gitlab.aerolab.dev/api/v4/projects/118/packages/generic/imu-board
UPLOAD_TOKEN ?= ⟦S⟧glpat-5XQtciT9XENSKVymunDd⟦/S⟧
`;

export default {
  num: 188,
  slug: 'stm32h7-freertos-spi-dma-imu',
  version: '1.0.71',
  model: 'claude-sonnet-4-20250514',
  cwd: '/home/ilse/fw/imu-board',
  branch: 'fix/imu-assert',
  title: 'IMU SPI DMA assert and stale samples on STM32H7',
  start: '2025-07-30T08:15:27.512Z',
  notes: [
    'One [MEMORY: learned] tag in assistant text; its expected text is the rest of that paragraph.',
    'One Edit of drivers/imu_icm42688.c fails (spaces instead of tabs, is_error); the file is in files.modified because of the other, successful Edits. The first make fails with -Werror.',
    'Core/Src/spi.c is edited twice (priority change, then reverted on the user\'s standing instruction); it still counts as modified.',
  ],
  script: [
    U("IMU driver (ICM-42688 on SPI2 with DMA) hits configASSERT after a few seconds of running. Before it dies the samples are sometimes garbage, same values repeated for a few frames. STM32H743, FreeRTOS 10.5, CubeMX HAL. Driver is drivers/imu_icm42688.c"),
    A(
      say("⟦F⟧Let me look at the driver and the FreeRTOS interrupt settings.⟦/⟧"),
      Read('drivers/imu_icm42688.c', DRIVER),
      Grep('configMAX_SYSCALL_INTERRUPT_PRIORITY|configPRIO_BITS|configLIBRARY_MAX_SYSCALL', { path: 'Core/Inc', output_mode: 'content', n: true, result: `Core/Inc/FreeRTOSConfig.h:121:#define configPRIO_BITS         __NVIC_PRIO_BITS /* 4 */
Core/Inc/FreeRTOSConfig.h:131:#define configLIBRARY_LOWEST_INTERRUPT_PRIORITY   15
Core/Inc/FreeRTOSConfig.h:138:#define configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY 5
Core/Inc/FreeRTOSConfig.h:146:#define configMAX_SYSCALL_INTERRUPT_PRIORITY ( configLIBRARY_MAX_SYSCALL_INTERRUPT_PRIORITY << (8 - configPRIO_BITS) )` }),
    ),
    A(
      think("The assert after a few seconds smells like vPortValidateInterruptPriority. ⟦F⟧Which IRQ actually runs the TxRx callback on H7 with DMA?⟦/⟧ Check the NVIC priorities in Core/Src."),
      say("⟦F⟧The callback already uses the `FromISR` variant, so the assert is more likely about which interrupt it runs in.⟦/⟧"),
      Grep('HAL_NVIC_SetPriority', { path: 'Core/Src', output_mode: 'content', n: true, result: `Core/Src/dma.c:52:  HAL_NVIC_SetPriority(DMA1_Stream2_IRQn, 5, 0);
Core/Src/dma.c:55:  HAL_NVIC_SetPriority(DMA1_Stream3_IRQn, 5, 0);
Core/Src/spi.c:97:    HAL_NVIC_SetPriority(SPI2_IRQn, 1, 0);
Core/Src/tim.c:61:    HAL_NVIC_SetPriority(TIM6_DAC_IRQn, 15, 0);` }),
    ),
    A(
      say(`Two separate problems.

[MEMORY: learned] ⟦E knowledge_acquired|configMAX_SYSCALL_INTERRUPT_PRIORITY;vPortValidateInterruptPriority⟧FreeRTOS API calls from an ISR are only allowed in interrupts whose priority is numerically at or above configMAX_SYSCALL_INTERRUPT_PRIORITY (5..15 on this board), and SPI2 at priority 1 trips the configASSERT in vPortValidateInterruptPriority.⟦/⟧

⟦E knowledge_acquired|SPI2_IRQHandler;end-of-transfer⟧On the H7 HAL, \`HAL_SPI_TxRxCpltCallback\` for a DMA transfer is raised from \`SPI2_IRQHandler\` on end-of-transfer, not from the DMA stream interrupt, so the DMA streams sitting at 5 don't help.⟦/⟧ ⟦E decision_made|priority 6;regeneration⟧SPI2_IRQn goes to priority 6, set in \`imu-board.ioc\` as well as \`spi.c\`, so the next CubeMX regeneration keeps it.⟦/⟧

⟦E knowledge_acquired|data cache;DMA writes⟧The repeated samples are a cache problem: DMA writes go straight to AXI SRAM, while the Cortex-M7 data cache can keep serving the old lines of \`s_rx\` to the CPU.⟦/⟧ ⟦E decision_made|aligned;SCB_InvalidateDCache_by_Addr⟧The RX buffer becomes a 32-byte aligned array padded to a full cache line, and the completion callback calls \`SCB_InvalidateDCache_by_Addr\` on it before waking the task.⟦/⟧

⟦E approach_rejected|globally;control loop⟧Turning the D-cache off globally would also stop the stale reads, but it slows down the control loop, which depends on cached filter state.⟦/⟧ ⟦E approach_rejected|MPU;linker section⟧A non-cacheable MPU region for DMA buffers is the other clean option; it needs a linker section and MPU setup that this project doesn't have yet, which is more churn than one invalidate.⟦/⟧`),
      Read('Core/Src/spi.c', SPI, { offset: 79, totalLines: 142 }),
      Read('imu-board.ioc', IOC, { offset: 203, totalLines: 318 }),
    ),
    A(
      Edit('drivers/imu_icm42688.c', `#define IMU_FRAME_LEN 14u

static SemaphoreHandle_t s_rx_done;
static volatile uint8_t s_rx[IMU_FRAME_LEN];`, `#define IMU_FRAME_LEN 14u
#define IMU_RX_BUF_LEN 32u /* one D-cache line */

static SemaphoreHandle_t s_rx_done;
static volatile uint8_t s_rx[IMU_RX_BUF_LEN] __attribute__((aligned(32)));`),
      Edit('drivers/imu_icm42688.c', `    HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
    BaseType_t woken = pdFALSE;`, `    HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
    SCB_InvalidateDCache_by_Addr(s_rx, IMU_RX_BUF_LEN);
    BaseType_t woken = pdFALSE;`, { error: 'String to replace not found in file.' }),
    ),
    A(
      say("⟦F⟧That block is indented with tabs; retrying with the exact text.⟦/⟧"),
      Edit('drivers/imu_icm42688.c', `	HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
	BaseType_t woken = pdFALSE;`, `	HAL_GPIO_WritePin(IMU_CS_GPIO_Port, IMU_CS_Pin, GPIO_PIN_SET);
	SCB_InvalidateDCache_by_Addr(s_rx, IMU_RX_BUF_LEN);
	BaseType_t woken = pdFALSE;`),
      Edit('Core/Src/spi.c', '    HAL_NVIC_SetPriority(SPI2_IRQn, 1, 0);', '    HAL_NVIC_SetPriority(SPI2_IRQn, 6, 0);'),
      Edit('imu-board.ioc', 'NVIC.SPI2_IRQn=true\\:1\\:0', 'NVIC.SPI2_IRQn=true\\:6\\:0'),
      Bash('make -j8', 'Build the firmware', { code: 2, stdout: `arm-none-eabi-gcc -c -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard -DUSE_HAL_DRIVER -DSTM32H743xx ... drivers/imu_icm42688.c -o build/imu_icm42688.o
drivers/imu_icm42688.c: In function 'HAL_SPI_TxRxCpltCallback':
drivers/imu_icm42688.c:40:38: error: passing argument 1 of 'SCB_InvalidateDCache_by_Addr' discards 'volatile' qualifier from pointer target type [-Werror=discarded-qualifiers]
   40 |         SCB_InvalidateDCache_by_Addr(s_rx, IMU_RX_BUF_LEN);
      |                                      ^~~~
Drivers/CMSIS/Include/core_cm7.h:2283:52: note: expected 'void *' but argument is of type 'volatile uint8_t *'
cc1: all warnings being treated as errors
make: *** [Makefile:131: build/imu_icm42688.o] Error 1` }),
    ),
    A(
      say("⟦F⟧Let me check which warnings the Makefile turns into errors before touching flags.⟦/⟧"),
      Read('Makefile', MAKEFILE, { totalLines: 160 }),
    ),
    A(
      say("⟦N⟧`-Werror` is global and this CMSIS version still declares the parameter as plain `void *`.⟦/⟧ ⟦F⟧A cast at the call site is the smallest change.⟦/⟧"),
      Edit('drivers/imu_icm42688.c', '	SCB_InvalidateDCache_by_Addr(s_rx, IMU_RX_BUF_LEN);', '	SCB_InvalidateDCache_by_Addr((void *)s_rx, IMU_RX_BUF_LEN);'),
      Bash('make -j8 && arm-none-eabi-size build/imu-board.elf', 'Rebuild and print section sizes', { stdout: `arm-none-eabi-gcc build/*.o -mcpu=cortex-m7 ... -o build/imu-board.elf
   text	   data	    bss	    dec	    hex	filename
  48212	    412	  23688	  72312	  11a78	build/imu-board.elf` }),
    ),
    A(
      say(`⟦E error_resolved|discarded-qualifiers;(void *)⟧The \`-Werror=discarded-qualifiers\` failure came from handing the \`volatile\` buffer to the older CMSIS \`SCB_InvalidateDCache_by_Addr(void *addr, ...)\`, and casting to \`(void *)\` at the call fixes the build.⟦/⟧

Changes:
- \`drivers/imu_icm42688.c\`: ⟦N⟧RX buffer aligned and padded to 32 bytes, invalidated in the completion callback⟦/⟧
- ⟦N⟧\`Core/Src/spi.c\` and \`imu-board.ioc\`: SPI2_IRQn at priority 6⟦/⟧

⟦F⟧Please run it on the bench for a while; if the assert is gone and the gyro stops repeating values, both fixes are confirmed.⟦/⟧ ⟦F⟧I haven't flashed anything myself.⟦/⟧`),
    ),
    U("⟦N⟧Ran it for 20 minutes on the bench, no assert, and the gyro values look sane.⟦/⟧ ⟦E preference_noted|USER CODE;.ioc⟧One rule for this repo though: don't edit CubeMX-generated files outside the USER CODE blocks, change the .ioc and I'll regenerate.⟦/⟧ ⟦F⟧Put spi.c back the way it was.⟦/⟧"),
    A(
      Edit('Core/Src/spi.c', '    HAL_NVIC_SetPriority(SPI2_IRQn, 6, 0);', '    HAL_NVIC_SetPriority(SPI2_IRQn, 1, 0);'),
    ),
    A(
      say("⟦N⟧`spi.c` is back to the generated text, and the priority change now lives only in `imu-board.ioc`.⟦/⟧ ⟦N⟧Until you regenerate, a build from this tree has SPI2 at priority 1 again, so the assert would come back.⟦/⟧ ⟦F⟧Want me to move the cache invalidate into a USER CODE block too, or is `drivers/` outside the generated tree?⟦/⟧"),
    ),
  ],
};
